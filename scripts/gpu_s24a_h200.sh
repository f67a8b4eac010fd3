#!/usr/bin/env bash
# Prepared in session 23, run in session 24 (call 1, with gpu_s24b_h200.sh): how busy each pipe is in the
# encoder (bf16 split, 256 MiB, this build), to check the estimate in docs/GPU_CODEC_NOTES.md (twenty-third
# section, "Next" 3)
# that its coding loop keeps the ALU pipe ~2/3 busy. ncu metrics of one compression each: issue activity,
# the ALU / FMA / FMA-heavy / LSU pipes' cycles active and instructions executed. Carry [".carry-run"]
# after PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
M=sm__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
for p in alu fma fmaheavy lsu; do
  M=$M,sm__pipe_${p}_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_${p}.sum
done
for sz in 262144; do
  timeout 150 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
    .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib $sz --sms 0 --reps 1 > "$R/ncu_pipes_$sz.txt" 2>&1
  echo "== ncu pipes bf16 split $sz KiB"; grep -E "sm__|gpu__" "$R/ncu_pipes_$sz.txt"
  # The metric names are not checked on this ncu yet: on an error, the section that charts the pipes.
  if grep -q "==ERROR==" "$R/ncu_pipes_$sz.txt"; then
    timeout 150 ncu --clock-control none --section ComputeWorkloadAnalysis --print-details all -k "regex:^compress_kernel" \
      -c 1 --launch-skip 3 .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib $sz --sms 0 --reps 1 \
      > "$R/ncu_cwa_$sz.txt" 2>&1
    grep -iE "pipe|alu|fma|lsu" "$R/ncu_cwa_$sz.txt" | head -30
  fi
  pack
done
echo "(${SECONDS}s)"
