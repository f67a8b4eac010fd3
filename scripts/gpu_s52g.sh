#!/usr/bin/env bash
# Session 52, one GPU: the pair encoder's copy of a block's escapes with 8 loads a lane in flight, as its word
# copy since 3-pairs-copy (6-pairs-real-ncu: the one-at-a-time loop took 3% of a real-weights compression's
# stall samples). .carry-run/new6: that change on main; gpu/: main.
# 1. gpu_check --pairs --quick of new6, memcheck and racecheck of its --pairs --tiny. 2. Pair compression of real
# bf16 weights at 256 MiB and 1 GiB, two rounds (reversed), and of Gaussian bf16 at 1 GiB and 4 GiB, one round.
# Carry [".carry-run"] (gpu/, new6/, weights/weights_bf16.bin.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=new6 check_run check_pairs_new6 200 -- --pairs --quick
CHECK_DIR=new6 SAN_SUFFIX=new6 san_run 150 -- --pairs --tiny
pack; echo "(${SECONDS}s)"
gpu_bench_rounds pairs_real "gpu new6" --dtypes 1 --flags 10 --input /tmp/wdata/weights_bf16.bin \
  --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
gpu_bench_dirs pairs_bf16 "gpu new6" --dtypes 1 --flags 10 --sizes-kib "1048576 4194304" --sms 0 --reps 10 --max-mib 4096
pack; echo "(${SECONDS}s)"
