#!/usr/bin/env bash
# Session 51, one GPU of either kind: the off-chain half of gpu_s51a.sh's FMA-pipe variant (branch exp/s51-fma built
# with -DUZIP_EXP_FMA=19 as .carry-run/new1/: the encoder's table address and histogram counters' addresses as
# IMAD.HI, its shed shift left a SHF on the state's chain (bit 16), the decoder unchanged) against main (gpu/), to
# tell whether gpu_s51a.sh's loss was the latency added to the chain. 1. bf16 split 16 MiB-1 GiB, two rounds (the
# second in reverse order); fp16 split 1 GiB. 2. gpu_check --quick of new1.
# Carry [".carry-run"] (gpu/, new1/); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
bf16_split_ab_rounds "gpu new1"
gpu_bench_dirs fp16_split "gpu new1" --dtypes 2 --flags 2 --sizes-kib 1048576 --sms 0 --reps 10 --max-mib 1024
pack; echo "(${SECONDS}s)"
CHECK_DIR=new1 check_run check_new1 150 -- --quick
echo "(${SECONDS}s)"
