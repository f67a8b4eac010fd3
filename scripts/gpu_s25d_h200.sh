#!/usr/bin/env bash
# Session 25, call 4: the compact decoder's last round. A call of 2.59 rounds of its 24 warps per SM pays for
# 3; with w warps per SM (one-warp CTAs whose shared memory lets w on an SM: UZIP_GPU_DEC_WARPS=w, new3 =
# exp/s25-warps) the same 3 rounds run with fewer warps sharing each SM. Sweep of w against the library's
# 24 (4-warp CTAs) in one call, bf16 split 256 MiB - 4 GiB, then fp16 / fp8; gpu_check --quick with the
# compact decoder forced at w = 21. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="262144 524288 1048576 4194304"
gpu_bench_run w24_d1 new3 -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
for w in 22 21 20 18 16; do
  gpu_bench_run w${w}_d1 new3 UZIP_GPU_DEC_WARPS=$w -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
done
gpu_bench_run w24b_d1 new3 -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 2 4; do
  gpu_bench_run w24_d$d new3 -- --dtypes $d --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
  for w in 22 21 20; do
    gpu_bench_run w${w}_d$d new3 UZIP_GPU_DEC_WARPS=$w -- --dtypes $d --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
done
pack
echo "(${SECONDS}s)"
env UZIP_GPU_DEC_WARPS=21 UZIP_GPU_DEC_VARIANT=4 timeout 150 .carry-run/new3/gpu_check --quick > "$R/check_new3_w21.log" 2>&1
echo "gpu_check new3 --quick w21 v4 rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new3_w21.log" | head -6
pack
echo "(${SECONDS}s)"
