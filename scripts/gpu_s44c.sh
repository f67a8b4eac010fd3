#!/usr/bin/env bash
# Session 44: the codec CLI (bench/codec.ts: TS through FFI, CUDA events, the device-to-device copy in the same
# run, JSON and SVG charts) over main's current kernels, which no full sweep had seen since session 28.
# 1. The split layout (the one P2P sends; small bf16, fp16 and fp32 tensors in the library's lean default),
#    every dtype and data set, 64 KiB-4 GiB, the whole chip. 2. bf16 and fp32 in the default layout, 1 MiB-1 GiB.
# 3. bf16 split under 8, 16 and 32 SMs. Each stage under `timeout`: the CLI writes what it measured when stopped.
# Carry [".carry-run"] (gpu/libuzip.so, deno.xz, weights/ from PACK_WEIGHTS=rec, commit); bench/results/ out of
# the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
codec_cli split 290 --split --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights \
  --sms 0 --repeat 10
codec_cli default 90 --sizes 1M,16M,256M,1G --dtypes bf16,fp32 --data gaussian,weights --sms 0 --repeat 10
codec_cli split_sms 100 --split --sizes 1M,16M,256M,1G --dtypes bf16 --data gaussian --sms 8,16,32 --repeat 10
