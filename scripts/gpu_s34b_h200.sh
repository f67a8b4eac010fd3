#!/usr/bin/env bash
# Session 34, call 2 (prepared, not run; after gpu_s34a passed): the kernel rules re-weighed with format
# version 2's shorter encoder step, each against the library's choice in the same call: bf16 split 2^15
# against 2^14 blocks (256 MiB - 1 GiB, two rounds; bf16 takes 2^15 only from 2^30 elements), encoder variant
# 1 (4-step groups, 20 warps) against the default 0 for bf16 and fp8, warp pairs (variant 3) at bf16 16 MiB,
# pair coding at 2^14 and 2^15; then ncu of one split compression at 1 GiB of bf16 and of fp32 (fp32 compresses
# at 1.15 TB/s where its coding work per byte is half bf16's: DRAM bytes and throughput say whether its
# second read of each block, 4 bytes an element for a 1-byte symbol, is what holds it). Carry as gpu_s34a.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  gpu_bench_run r${r}_bf16_lg14 gpu -- --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_bf16_lg15 gpu -- --dtypes 1 --flags 2 --log2 15 --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
gpu_bench_run bf16_v0 gpu UZIP_GPU_ENC_VARIANT=0 -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_run bf16_v1 gpu UZIP_GPU_ENC_VARIANT=1 -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_run bf16_v3 gpu UZIP_GPU_ENC_VARIANT=3 -- --dtypes 1 --flags 2 --sizes-kib "16384" --sms 0 --reps 10
gpu_bench_run fp8_v0 gpu UZIP_GPU_ENC_VARIANT=0 -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run fp8_v1 gpu UZIP_GPU_ENC_VARIANT=1 -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_run pairs_lg14 gpu -- --dtypes 1 --flags 10 --log2 14 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run pairs_lg15 gpu -- --dtypes 1 --flags 10 --log2 15 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
# What bounds the version-2 encoder (issue rate, eligible warps, stall reasons, DRAM bytes; no source page:
# this is the release build, not the lineinfo one). gpu_bench takes the last --dtypes given.
NCU_TOOLS=gpu ncu_kernel compress_kernel 1048576 2 enc1g
pack; echo "(${SECONDS}s)"
NCU_TOOLS=gpu ncu_kernel compress_kernel 1048576 2 enc1g_fp32 --dtypes 3
grep -E "DRAM Throughput|Memory Throughput|dram__bytes" "$R/ncu_enc1g_fp32_details.txt" | head -6
pack; echo "(${SECONDS}s)"
