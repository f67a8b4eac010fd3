#!/usr/bin/env bash
# Session 50, one GPU of either kind: main after the wide-apart merge (new2/ = exp/s50-wide-apart's library, the
# merged cuda/ tree) against main before it (gpu/). 1. The TypeScript GPU suites on new2's library; memcheck of
# gpu_check --tiny with the pair forced (UZIP_GPU_DEC_WIDE_APART=1). 2. fp32 split 256 MiB, 1 and 4 GiB, two
# rounds (the second in reverse order); bf16 split 256 MiB and 1 GiB as a control (issue #3's table on an H200).
# Carry [".carry-run"] (gpu/, new2/, deno.xz); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
UZIP_LIB="$PWD/.carry-run/new2/libuzip.so" deno_gpu_suites
echo "(${SECONDS}s)"
CHECK_DIR=new2 SAN_TOOLS=memcheck SAN_SUFFIX=apart san_run 150 UZIP_GPU_DEC_WIDE_APART=1 -- --tiny
echo "(${SECONDS}s)"
a=(--dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_rounds fp32_split "gpu new2" "${a[@]}"
gpu_bench_dirs bf16_split "gpu new2" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
pack; echo "(${SECONDS}s)"
