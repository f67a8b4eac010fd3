#!/usr/bin/env bash
# Session 52, one GPU: a stall hunt over main's kernels after gpu_s52b.sh found the pair encoder's word copy
# waiting one load at a time. ncu --set full (details page; SASS page with stall samples per instruction, csv xz)
# of main's byte coding, bf16 split (whole chip, Gaussian): compression and decompression at 1 MiB, 16 MiB and
# 1 GiB, fp32 compression at 1 GiB, and the pair decoder at 1 GiB. Carry [".carry-run"] (gpu/: main's build).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
# ncu_one TAG KERNEL_REGEX DTYPE FLAGS KIB: ncu_full of main's gpu_bench at that dtype, coding and size.
ncu_one() { ncu_full "$1" gpu "$2" --dtypes "$3" --flags "$4" --sizes-kib "$5" --sms 0 --reps 1 --max-mib 1024; }
ncu_one c16m "^compress_kernel" 1 2 16384
ncu_one d16m "^decompress_kernel" 1 2 16384
ncu_one c1m "^compress_kernel" 1 2 1024
ncu_one d1m "^decompress_kernel" 1 2 1024
ncu_one d1g "^decompress_kernel" 1 2 1048576
ncu_one pd1g "^decompress_kernel" 1 10 1048576
ncu_one f32c1g "^compress_kernel" 3 2 1048576
echo "(${SECONDS}s)"
