#!/usr/bin/env bash
# The lane encoder's section writer loading two lanes' flushed words at once (was one: 32 round trips to
# L2 in a row per block), one H200, one device call (session 15): gpu_check --lanes of the default choice
# and --quick of the forced variants, gpu_bench A/B against the previous build carried in .carry-run/old
# (two rounds, same call, d2d copy in each), an ncu profile of the bf16 kernel, compute-sanitizer.
# Pack: copy the previous build's gpu_check, gpu_bench and libuzip.so to .carry/old/, then
# PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
check_run check_lanes 150 -- --lanes
for v in 0 1 2; do check_run "check_lanes_v$v" 100 UZIP_GPU_LANES_ENC_VARIANT=$v -- --lanes --quick; done
for round in 1 2; do
  for d in 1 3 4; do
    for dir in old gpu; do
      gpu_bench_run "r${round}_${dir}_d$d" $dir -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
    done
  done
  pack
done
NCU_TOOLS=gpu ncu_kernel lanes_compress 262144 6 lanes_enc_v0 --log2 14
pack
san_run 150 -- --lanes --tiny
