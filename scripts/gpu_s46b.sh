#!/usr/bin/env bash
# Session 46, one GPU: the encoder's next ticket taken once a block is published, and that block's lines prefetched
# to the L2 (branch exp/s46-next-prefetch, built in gpu/) against main (old/), same call. Session 46's alias
# experiment (1-l2-alias) found the histogram pass's DRAM wait worth 9-12% of a large bf16 compression.
# 1. gpu_check --quick on the branch (its many-round cases take tickets the new way); memcheck of --tiny.
# 2. bf16 split 16 MiB-4 GiB, two rounds (16 MiB: one round, unchanged code path: the control); bf16 default
# layout, fp16 split, fp32 split, fp8 at 256 MiB and 1 GiB.
# (The other codings' rows through device_env.sh's dtype_rows_ab since the session's end: the same runs.)
# Carry [".carry-run"] (old/ = main's build, gpu/ = the branch's); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
check_run check 240 -- --quick
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_ab "bf16_split_r${r}_%s" -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10 \
    --max-mib 4096
  pack; echo "(${SECONDS}s)"
done
dtype_rows_ab "262144 1048576" 1024
pack; echo "(${SECONDS}s)"
SAN_TOOLS=memcheck san_run 150 -- --tiny
echo "(${SECONDS}s)"
