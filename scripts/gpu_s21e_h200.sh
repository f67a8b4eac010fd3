#!/usr/bin/env bash
# Session 21, call 5 (branch exp/s21-dec-table, final form: symbol-by-symbol fill up to 64 symbols, slot
# rounds for 65-192, the walk above): gpu_check --quick, then decode A/B against main (old/) for bf16 and
# fp16 at 1 MiB, 16 MiB and 256 MiB, median of 10. Pack as gpu_s21d; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 120 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
