#!/usr/bin/env bash
# Session 44, main with every call kept to its SM budget by default (cuda/grid_shape.h): gpu_check --quick (its
# cases run under 1-16 SM budgets and with the permitted SMs occupied), bf16 split under 16 and 64 SMs with the
# default and with UZIP_GPU_STRICT_BUDGET=0 (the old spread) so the default is seen to be the strict rule, then
# the TS GPU suites. Carry [".carry-run"] (gpu/ = this build, deno.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
check_run check_main 200 -- --quick
echo "(${SECONDS}s)"
gpu_bench_run bf16_budget_default gpu -- --dtypes 1 --flags 2 --log2 13 --sizes-kib "1024 4096" --sms 16,64 --reps 10
gpu_bench_run bf16_budget_spread gpu UZIP_GPU_STRICT_BUDGET=0 -- --dtypes 1 --flags 2 --log2 13 --sizes-kib "1024 4096" --sms 16,64 --reps 10
pack
deno_gpu_suites
echo "(${SECONDS}s)"
