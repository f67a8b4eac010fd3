#!/usr/bin/env bash
# Session 47, one GPU: main with the histogram pass's next-round prefetch for fp8 too (gpu/) against main before
# it (old/), same call. 1. gpu_check --quick of gpu/ and memcheck of its --tiny cases (CHECK=0 skips). 2. fp8
# (default layout) 1 MiB-4 GiB, two rounds, the second in reverse order; bf16 split and fp32 split 16 MiB-1 GiB
# once (their kernels did not change). Carry [".carry-run"]; bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
quick_memcheck
a=(--sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_dirs fp8_r1 "old gpu" --dtypes 4 --flags 0 "${a[@]}"
gpu_bench_dirs fp8_r2 "gpu old" --dtypes 4 --flags 0 "${a[@]}"
pack; echo "(${SECONDS}s)"
b=(--sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --max-mib 1024)
gpu_bench_dirs bf16_split "old gpu" --dtypes 1 --flags 2 "${b[@]}"
gpu_bench_dirs fp32_split "old gpu" --dtypes 3 --flags 2 "${b[@]}"
pack; echo "(${SECONDS}s)"
