#!/usr/bin/env bash
# Session 46, one GPU: the histogram pass prefetching its next round of groups to the L2, one 128-byte line a lane
# (branch exp/s46-hist-prefetch, built in gpu/) against main (old/), same call. 1. gpu_check --quick on the branch
# (CHECK=0 skips it: a prefetch changes no byte, and gpu_bench checks every round trip). 2. bf16 split 1 MiB-4 GiB,
# ROUNDS (default 2) rounds; bf16 default layout, fp16 / fp32 split, fp8 at 16 MiB-1 GiB; bf16 split
# 1-16 MiB under 16 SMs. 3. ncu of one 1 GiB bf16 split compression, each build.
# (The other codings' rows through device_env.sh's dtype_rows_ab since the session's end: the same runs.)
# Carry [".carry-run"] (old/ = main's build, gpu/ = the branch's); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
[ "${CHECK:-1}" = 0 ] || check_run check 200 -- --quick
echo "(${SECONDS}s)"
for r in $(seq "${ROUNDS:-2}"); do
  gpu_bench_ab "bf16_split_r${r}_%s" -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 \
    --reps 10 --max-mib 4096
  pack; echo "(${SECONDS}s)"
done
dtype_rows_ab "16384 262144 1048576" 1024
gpu_bench_ab "bf16_split_sms16_%s" -- --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 16 --reps 10
pack; echo "(${SECONDS}s)"
N=(--dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024)
ncu_compress gpu -- "${N[@]}"
NCU_DIR=old ncu_compress old -- "${N[@]}"
echo "(${SECONDS}s)"
