#!/usr/bin/env bash
# Session 49, one GPU of either kind. 1. What fills the L2 in main's compress kernels: ncu's breakdown of
# lts__throughput (and of the memory and compute throughputs) for one 1 GiB split compression each of fp32 (the
# staged kernel: lts__throughput 82% of peak on the H100, session 49's first call) and bf16, to $R/ncu_bd_TAG.txt
# (device_env.sh's ncu_compress with NCU_METRICS; the call that ran, at 75bb9c0, had its own copy of that ncu line).
# 2. gpu_s47b.sh: main's state (fp32 / fp16 / fp8 / bf16 default 16 MiB-4 GiB, then the codec CLI's split sweep,
# CLI_T s: 240 on an H200, issue #3's card, else 150). On an H200 stage 2 runs first.
# Carry [".carry-run"] (gpu/, deno.xz); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
breakdowns() {
  local m=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
  NCU_METRICS=$m ncu_compress bd_fp32 -- --dtypes 3 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
  echo "(${SECONDS}s)"
  NCU_METRICS=$m ncu_compress bd_bf16 -- --dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
  echo "(${SECONDS}s)"
}
if grep -q H200 "$R/gpu.txt"; then
  CLI_T=${CLI_T:-240} bash scripts/gpu_s47b.sh
  breakdowns
else
  breakdowns
  CLI_T=${CLI_T:-150} bash scripts/gpu_s47b.sh
fi
