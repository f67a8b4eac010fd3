#!/usr/bin/env bash
# Session 15's last build, short (the device time left was ~4 minutes): the lane decoder's word ring for
# two-byte types only (fp32 back on the global words), gpu_check --lanes --quick, and lane decode of fp32 and
# bf16 with the default decoder against UZIP_GPU_LANES_DEC_VARIANT=1 in the same call.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
check_run check_lanes 60 -- --lanes --quick
for d in 3 1; do
  gpu_bench_run "lanes_default_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
  gpu_bench_run "lanes_old_d$d" gpu UZIP_GPU_LANES_DEC_VARIANT=1 -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
done
pack
