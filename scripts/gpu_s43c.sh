#!/usr/bin/env bash
# Session 43, after the one-round decoder rule: main's build (gpu/, 96856e5's native code) on the H200.
# 1. Lean sections at 2^13 for small split fp16 calls, through options only (no build): fp16 split at the default
# (2^14) against lean 2^13 (flags 0x12, decoded through the default entry as a default coding would be),
# 64 KiB-16 MiB, two rounds; ratios on the CPU: bench/results/cpu-2026-12-06-session43 (2^12, and smaller fp8
# blocks, cost 2% of ratio there, so they are not timed).
# 2. The TypeScript GPU suites on this build (small decodes now in the one-round kernel, with and without a
# dtype). Carry [".carry-run"] (gpu/, deno.xz, commit); bench/results/ moved out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small="64 256 1024 4096 16384"
for round in 1 2; do
  gpu_bench_run "fp16_split_r$round" gpu -- --dtypes 2 --flags 2 --sizes-kib "$small" --sms 0 --reps 10
  gpu_bench_run "fp16_split_lean13_r$round" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes 2 --flags 18 --log2 13 \
    --sizes-kib "$small" --sms 0 --reps 10
  pack
done
echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
