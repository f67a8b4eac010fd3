#!/usr/bin/env bash
# Session 47, one GPU: why fp32 loses with the histogram pass's next-round prefetch (session 46: -2 to -4%). gpu/ =
# main (fp32 without it), new1/ = the same tree prefetching for every dtype (`if constexpr (true)`). 1. fp32 split
# 16 MiB-1 GiB (SIZES KiB), two rounds over DIRS (default "gpu new1"), the second in reverse order. 2. ncu of one
# 1 GiB fp32 split compression of gpu/ and new1/ (each skipped once the call has run NCU_MAX s): stall reasons,
# issue, instructions, memory (raw page, csv, xz). Carry [".carry-run"]; bench/results/ out of the tree.
# Session 48's gpu_s48b.sh runs it with new2/ and 4 GiB.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
dirs=${DIRS:-gpu new1}
a=(--dtypes 3 --flags 2 --sizes-kib "${SIZES:-16384 262144 1048576}" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_rounds fp32 "$dirs" "${a[@]}"
for d in gpu new1; do
  [ -n "${NCU_MAX:-}" ] && [ "$SECONDS" -gt "$NCU_MAX" ] && { echo "ncu $d skipped (${SECONDS}s)"; continue; }
  ncu_sections "$d" "fp32_$d" --dtypes 3 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
  echo "(${SECONDS}s)"
done
