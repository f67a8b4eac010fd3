#!/usr/bin/env bash
# Session 31, call 2: the first GPU encoder of pair coding (cuda/gpu_pairs_encode.cuh; FORMAT.md "Pair
# coding"). (1) gpu_check --pairs (GPU bytes equal to the CPU codec's, the CPU decodes them, the GPU
# decoders refuse them) and the whole --quick run; (2) compress speed, pairs (flags 10) against byte coding
# (flags 2) in the same call, bf16 and fp32, Gaussian and real bf16 weights (--input: the GPU stream must
# equal the CPU codec's); (3) compute-sanitizer memcheck and racecheck of gpu_check --pairs --tiny (150 s each).
# Carry [".carry-run"] (gpu/ tools and library xz of this commit, weights/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_check 300 -- --pairs --quick
S="1024 16384 262144 1048576 4194304"
for r in 1 2; do
  for fl in 2 10; do
    gpu_bench_run "r${r}_d1_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for fl in 2 10; do
  gpu_bench_run "r1_d3_f$fl" gpu -- --dtypes 3 --flags $fl --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_run "w_d1_f$fl" gpu -- --dtypes 1 --flags $fl --input /tmp/wdata/weights_bf16.bin \
    --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
SAN_SUFFIX=pairs san_run 150 -- --pairs --tiny
echo "(${SECONDS}s)"
