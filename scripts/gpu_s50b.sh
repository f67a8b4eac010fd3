#!/usr/bin/env bash
# Session 50, one GPU of either kind: the encoder's first-round preload (branch exp/s50-preload, built with
# -DUZIP_EXP_PRELOAD=1 into .carry-run/new1/) against main (gpu/). A lone warp takes its next ticket before it
# finishes its oldest deferred block and issues that block's first round of histogram loads into registers, so
# they land during the look-back and payload copy (session 46: the histogram pass's DRAM wait is 9-12% of the
# encoder, and the round-ahead prefetch covers every round but each block's first).
# 1. gpu_check --quick of new1 (gpu_bench also compares every stream with the CPU codec's). 2. bf16 split
# 16 MiB-4 GiB, two rounds (the second in reverse order). 3. fp16 / fp32 split, fp8 and bf16 default layout at
# 256 MiB and 1 GiB, one round. Then, while time is left, gpu_s50a.sh (copy probe, fp32 decode A/B, tools).
# Carry [".carry-run"] (gpu/, new1/, old/, probe/, deno.xz); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
sass_tools_out
CHECK_DIR=new1 check_run check_new1 150 -- --quick
echo "(${SECONDS}s)"
a=(--dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_rounds bf16_split "gpu new1" "${a[@]}"
for df in "2 2" "3 2" "4 0" "1 0"; do
  set -- $df
  gpu_bench_dirs "d$1_f$2" "gpu new1" --dtypes $1 --flags $2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
  pack; echo "(${SECONDS}s)"
done
if [ "$SECONDS" -lt 330 ]; then bash scripts/gpu_s50a.sh; fi
