#!/usr/bin/env bash
# Session 47, one GPU: why fp32 loses with the histogram pass's next-round prefetch (session 46: -2 to -4%). gpu/ =
# main (fp32 without it), new1/ = the same tree prefetching for every dtype (`if constexpr (true)`). 1. fp32 split
# 16 MiB-1 GiB, two rounds, the second in reverse order. 2. ncu of one 1 GiB fp32 split compression of each: stall
# reasons, issue, instructions, memory (raw page, csv, xz). Carry [".carry-run"]; bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
a=(--dtypes 3 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --max-mib 1024)
gpu_bench_dirs fp32_r1 "gpu new1" "${a[@]}"
gpu_bench_dirs fp32_r2 "new1 gpu" "${a[@]}"
pack; echo "(${SECONDS}s)"
for d in gpu new1; do
  timeout 100 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section InstructionStats --section SpeedOfLight -k "regex:^compress_kernel" -c 1 --launch-skip 3 --page raw --csv \
    ".carry-run/$d/gpu_bench" /tmp/x.json --dtypes 3 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024 \
    > "$R/ncu_raw_fp32_$d.csv" 2>&1
  echo "ncu $d rc=$?"; xz -T4 -f "$R/ncu_raw_fp32_$d.csv"
  pack; echo "(${SECONDS}s)"
done
