#!/usr/bin/env bash
# Session 18, sixth call: ncu --set full (lineinfo build) of one bf16 split 1 MiB compress call with warp
# pairs (the library's choice) and with lone warps (UZIP_GPU_ENC_VARIANT=0), for where a pair's block time
# goes (its coder's chain measured ~91 cycles a step for ~16 instructions, 3-rendezvous).
# Pack: PROF_VARIANTS=li bash scripts/gpu_prof_build.sh after scripts/pack_device.sh; .carry-run/li = the li
# build's libuzip.so and gpu_bench; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
ncu_kernel compress_kernel 1024 2 pair_1m
pack
export UZIP_GPU_ENC_VARIANT=0
ncu_kernel compress_kernel 1024 2 lone_1m
unset UZIP_GPU_ENC_VARIANT
pack
echo "(${SECONDS}s)"
