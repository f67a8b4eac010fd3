#!/usr/bin/env bash
# Session 36: the speed side of smaller blocks for small calls (issue #3's 1 MiB and 16 MiB bars). Today's
# kernels at log2Block 11, 12, 13 (13 is the library's choice for bf16 up to 16 MiB), bf16 split layout,
# 1, 4 and 16 MiB, two rounds; fp32 at 1 MiB. The ratio side is scripts/block_overhead_study.py (CPU): 2^12
# blocks go over DietGPU's ratio bar today and would stay under it with a leaner section (range table, seeded states).
# Carry [".carry-run"] with the build in gpu/ (xz) and the commit file; no Deno needed.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  for l in 11 12 13; do
    gpu_bench_run r${r}_bf16_l$l gpu -- --dtypes 1 --flags 2 --log2 $l --sizes-kib "1024 4096 16384" --sms 0 --reps 20
  done
done
gpu_bench_run fp32_l12 gpu -- --dtypes 3 --flags 2 --log2 12 --sizes-kib "1024 16384" --sms 0 --reps 20
gpu_bench_run fp32_l13 gpu -- --dtypes 3 --flags 2 --log2 13 --sizes-kib "1024 16384" --sms 0 --reps 20
pack; echo "(${SECONDS}s)"
