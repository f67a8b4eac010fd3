#!/usr/bin/env bash
# Session 43, after the one-round decoder rule: main's build (gpu/, 96856e5's native code) on the H200.
# 1. Smaller blocks for small fp16 and fp8 calls, through options only (no build): fp16 split at the default
# (2^14) against lean sections at 2^13 and 2^12 (flags 0x12, decoded through the default entry as a default
# coding would be), fp16 default layout and fp8 e4m3 against plain
# 2^13 and 2^12 (--log2), 64 KiB-16 MiB; ratios on the CPU: bench/results/cpu-2026-12-06-session43.
# 2. The TypeScript GPU suites on this build (small decodes now in the one-round kernel, with and without a
# dtype). Carry [".carry-run"] (gpu/, deno.xz, commit); bench/results/ moved out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small="64 256 1024 4096 16384"
gpu_bench_run fp16_split gpu -- --dtypes 2 --flags 2 --sizes-kib "$small" --sms 0 --reps 10
for lg in 13 12; do
  gpu_bench_run "fp16_split_lean$lg" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes 2 --flags 18 --log2 $lg --sizes-kib "$small" --sms 0 --reps 10
done
pack
for d in 2 4; do
  gpu_bench_run "d${d}_f0" gpu -- --dtypes $d --flags 0 --sizes-kib "$small" --sms 0 --reps 10
  for lg in 13 12; do
    gpu_bench_run "d${d}_f0_plain$lg" gpu -- --dtypes $d --flags 0 --log2 $lg --sizes-kib "$small" --sms 0 --reps 10
  done
  pack
done
echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
