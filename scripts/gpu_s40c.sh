#!/usr/bin/env bash
# Session 40, third call: the TypeScript GPU suites on the merged build (tests/device_gpu_test.ts now decodes
# every round trip through { lean: "maybe" } too), possible again since the results' raw files were archived
# (scripts/archive_results.sh); then, if the card is an H200, the sweep of scripts/gpu_s40b.sh (call 2 got an
# H100). Carry [".carry-run"]: gpu/ (xz), deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
deno_gpu_suites
echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt"; then
  codec_sweep
  BENCH_TIMEOUT=120 gpu_bench_run sweep_d1_f2_4g gpu -- --dtypes 1 --flags 2 --sizes-kib "4194304" --sms 0 --reps 5
  pack; echo "(${SECONDS}s)"
fi
