#!/usr/bin/env bash
# Session 25, call 3: how much two state chains per warp give the decoder today (no new code): blocks of 2^15
# (two segments, one table) decoded by the default kernel with segment pairs (UZIP_GPU_DEC_VARIANT=0, 20
# warps/SM), without them (=2), and by the compact kernel (=4, 24 warps, one chain), against the library's
# 2^14 blocks, bf16 split; then fp32 at 2^15 / 2^16 against its 2^14 default. main's build (.carry-run/old).
# Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="262144 1048576 4194304"
gpu_bench_run lib14_d1 old -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
for v in 0 2 4; do
  gpu_bench_run l15_v${v}_d1 old UZIP_GPU_DEC_VARIANT=$v -- --dtypes 1 --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
done
gpu_bench_run l15_lib_d1 old -- --dtypes 1 --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
gpu_bench_run lib14_d3 old -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
for l in 15 16; do
  for v in 0 1; do
    gpu_bench_run l${l}_v${v}_d3 old UZIP_GPU_DEC_VARIANT=$v -- --dtypes 3 --flags 2 --log2 $l --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
done
pack
echo "(${SECONDS}s)"
