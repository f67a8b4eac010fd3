#!/usr/bin/env bash
# Session 31, call 3: compress speed of the first GPU pair encoder (cuda/gpu_pairs_encode.cuh), pairs (flags
# 10) against byte coding (flags 2) in the same call, two rounds of bf16, fp32, real bf16 weights (--input: the
# GPU stream must equal the CPU codec's), and 16 SMs; every pair stream decoded by the CPU codec. (Call 2 ran
# gpu_check --pairs and the sanitizers; its gpu_bench of pairs stopped at a buffer bound, fixed in b4f99ac.)
# Carry [".carry-run"] (gpu/ tools and library xz, weights/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
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
  gpu_bench_run "sm16_d1_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "16384 262144" --sms 16 --reps 10
done
pack; echo "(${SECONDS}s)"
