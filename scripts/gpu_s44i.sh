#!/usr/bin/env bash
# Session 44: the budget comparisons of 7-9 were not like for like. grid_shape gives a call of at most the budget's
# CTAs just those CTAs, which the hardware spreads over the whole chip, while a larger call gets the gated full grid
# and keeps to the budget's SMs; so the plain streams' calls (fewer blocks) ran on more SMs than the budget.
# UZIP_GPU_STRICT_BUDGET=1 (this build) keeps every call under a budget to its SMs. 1. gpu_check --quick in that
# mode (its cases run under 1-16 SM budgets). 2. bf16 and fp16 split, 1-16 MiB, today's defaults against the plain
# streams (--log2 13 / 14) under 16, 32 and 64 SMs, strict and not; the whole chip as the control (strict changes
# nothing there). Carry [".carry-run"] (gpu/ = this build).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
check_run check_strict 200 UZIP_GPU_STRICT_BUDGET=1 -- --quick
echo "(${SECONDS}s)"
s="1024 4096 16384"
for strict in 1 0; do
  gpu_bench_run "bf16_default_strict$strict" gpu UZIP_GPU_STRICT_BUDGET=$strict -- --dtypes 1 --flags 2 --sizes-kib "$s" --sms 16,32,64,0 --reps 10
  gpu_bench_run "bf16_log2_13_strict$strict" gpu UZIP_GPU_STRICT_BUDGET=$strict -- --dtypes 1 --flags 2 --log2 13 --sizes-kib "$s" --sms 16,32,64,0 --reps 10
  gpu_bench_run "fp16_default_strict$strict" gpu UZIP_GPU_STRICT_BUDGET=$strict -- --dtypes 2 --flags 2 --sizes-kib "$s" --sms 16,32,64,0 --reps 10
  gpu_bench_run "fp16_log2_14_strict$strict" gpu UZIP_GPU_STRICT_BUDGET=$strict -- --dtypes 2 --flags 2 --log2 14 --sizes-kib "$s" --sms 16,32,64,0 --reps 10
  pack
done
echo "(${SECONDS}s)"
