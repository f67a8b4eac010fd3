#!/usr/bin/env bash
# Session 52, one GPU: the pair encoder's word copy with every load of a round issued before its first use
# (gpu_s52b.sh's ncu: 22% of the pair kernel's stall samples on loads that waited one by one under a branch a
# word). .carry-run/new3: main + that copy; new4: the same on top of session 52's two trims (gpu_s52a.sh:
# level on their own); gpu/: main.
# 1. gpu_check --pairs --quick of both; memcheck and racecheck of new3's --pairs --tiny. 2. Pair compression,
# bf16 split 256 MiB-4 GiB (gpu new3 new4, then 256 MiB and 1 GiB reversed), main's byte coding in the same
# call as the yardstick; fp32 pairs; real bf16 weights (streams compared with the CPU codec's). 3. ncu of
# new3's pair kernel at 1 GiB (as gpu_s52b.sh).
# Carry [".carry-run"] (gpu/, new3/, new4/, weights/weights_bf16.bin.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=new3 check_run check_pairs_new3 200 -- --pairs --quick
CHECK_DIR=new4 check_run check_pairs_new4 200 -- --pairs --quick
CHECK_DIR=new3 SAN_SUFFIX=new3 san_run 150 -- --pairs --tiny
pack; echo "(${SECONDS}s)"
p=(--sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_dirs pairs_bf16_r1 "gpu new3 new4" --dtypes 1 --flags 10 "${p[@]}"
gpu_bench_run bytes_bf16_r1 gpu -- --dtypes 1 --flags 2 "${p[@]}"
pack; echo "(${SECONDS}s)"
gpu_bench_dirs pairs_bf16_r2 "new4 new3 gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
gpu_bench_run bytes_bf16_r2 gpu -- --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
pack; echo "(${SECONDS}s)"
pairs_fp32_real "gpu new3 new4"
pack; echo "(${SECONDS}s)"
ncu_full pairs_new3 new3 pairs_compress_kernel --dtypes 1 --flags 10 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
pack; echo "(${SECONDS}s)"
