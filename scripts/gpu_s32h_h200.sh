#!/usr/bin/env bash
# Session 32, call 8: the pair decoder with a u8 slot table and per-pair entries (7.9 KB a warp instead of
# 19.2: 16 warps an SM at 128 registers instead of 12; a second lookup on the chain) (gpu/) against main's
# (base/, 40ca5ba): gpu_check --pairs --quick, memcheck and racecheck of gpu/, then pair decoding of both builds, bf16
# synthetic and real weights, fp32. Carry [".carry-run"] (gpu/, base/ xz, bf16 weights).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_quick 200 -- --pairs --quick
tail -1 "$R/pairs_quick.log"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --pairs --tiny > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/san_$tool.log" | head -2
done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs bf16_f10 "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs w_bf16_f10 "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
gpu_bench_dirs fp32_f10 "base gpu" --dtypes 3 --flags 10 --sizes-kib "1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
