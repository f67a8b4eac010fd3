#!/usr/bin/env bash
# Session 44: the fp16 lean default (lean 2^13 up to 16 MiB, merged this session on whole-chip figures) under SM
# budgets of 8, 16, 32 and 64: today's default against the stream before it (--log2 14), 1-16 MiB, two rounds.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
s="1024 4096 16384"
for r in 1 2; do
  gpu_bench_run "fp16_default_sms_r$r" gpu -- --dtypes 2 --flags 2 --sizes-kib "$s" --sms 8,16,32,64 --reps 10
  gpu_bench_run "fp16_log2_14_sms_r$r" gpu -- --dtypes 2 --flags 2 --log2 14 --sizes-kib "$s" --sms 8,16,32,64 --reps 10
  pack
done
echo "(${SECONDS}s)"
