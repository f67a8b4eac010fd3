#!/usr/bin/env bash
# Session 25, call 6: the byte-table decoder for two-byte streams only (new5 = exp/s25-bt2only: one width's
# registers, UZIP_GPU_DEC_VARIANT=8 at 32 warps per SM and 64 registers, =9 at 36 and 56), against the
# byte table for every width at 28 warps (=6), the compact layout (=4) and main (old), bf16 split and fp16
# (speed only: variants 8 and 9 answer UNSUPPORTED for other widths, so they are not for gpu_check).
# Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="262144 1048576 4194304"
gpu_bench_run lib_d1_old old -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
for v in 4 6 8 9; do
  gpu_bench_run v${v}_d1 new5 UZIP_GPU_DEC_VARIANT=$v -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
done
gpu_bench_run lib_d1b_old old -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
gpu_bench_run lib_d2_old old -- --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
for v in 8 9; do
  gpu_bench_run v${v}_d2 new5 UZIP_GPU_DEC_VARIANT=$v -- --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
