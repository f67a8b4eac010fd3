#!/usr/bin/env bash
# Session 48, one GPU (an H100 if that is what comes): fp32 and the histogram pass's prefetch. gpu/ = main (fp32
# without it), new1/ = main prefetching one round ahead for every dtype (`if constexpr (true)`), new2/ = main with
# fp32 prefetching two rounds ahead (branch exp/s48-fp32-pf2; fp32's rounds are half a two-byte round's elements).
# 1. fp32 split 16 MiB-1 GiB, two rounds, the second in reverse order. 2. ncu of one 1 GiB fp32 split compression
# of gpu/ and new1/ (each skipped past NCU_MAX s, default 420): stall reasons, issue, memory (csv, xz). Carry [".carry-run"]; bench/results/ out.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
a=(--dtypes 3 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_dirs fp32_r1 "gpu new1 new2" "${a[@]}"
pack; echo "(${SECONDS}s)"
gpu_bench_dirs fp32_r2 "new2 new1 gpu" "${a[@]}"
pack; echo "(${SECONDS}s)"
for d in gpu new1; do
  [ "$SECONDS" -gt "${NCU_MAX:-420}" ] && { echo "ncu $d skipped (${SECONDS}s)"; continue; }
  timeout 100 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section InstructionStats --section SpeedOfLight -k "regex:^compress_kernel" -c 1 --launch-skip 3 --page raw --csv \
    ".carry-run/$d/gpu_bench" /tmp/x.json --dtypes 3 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024 \
    > "$R/ncu_raw_fp32_$d.csv" 2>&1
  echo "ncu $d rc=$?"; xz -T4 -f "$R/ncu_raw_fp32_$d.csv"
  pack; echo "(${SECONDS}s)"
done
