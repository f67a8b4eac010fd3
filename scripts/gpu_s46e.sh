#!/usr/bin/env bash
# Session 46, one GPU: gpu_s46d (the evict_last prefetch, gpu/ = exp/s46-next-prefetch's build), then, on an H200
# only, main's build (old/) through the codec CLI's split sweep on the whole chip (uniform and Gaussian data, 64
# KiB-4 GiB, every dtype): no H200 has run main since session 43. Carry [".carry-run"] (old/, gpu/, deno.xz);
# bench/results/ out of the tree for the call.
set -u
bash scripts/gpu_s46d.sh
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
if grep -q H200 "$R/gpu.txt"; then
  export UZIP_LIB="$PWD/.carry-run/old/libuzip.so"
  CLI_SHOW=gaussian codec_cli h200_split 300 --split --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 \
    --data uniform,gaussian --sms 0 --repeat 10
fi
echo "(${SECONDS}s)"
