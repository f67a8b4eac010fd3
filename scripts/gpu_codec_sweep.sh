#!/usr/bin/env bash
# The codec benchmark CLI (bench/codec.ts) on GPU 0 with the packed bundle: bf16, fp16, fp32, fp8 on
# uniform, Gaussian and real weights, 64 KiB-4 GiB, the full chip and 8/16/32 SMs, a copy of the same size
# in the same run (SMS, SIZES override); JSON and SVG charts into $R. Usage (device): bash scripts/gpu_codec_sweep.sh
set -u
source scripts/device_env.sh
CUDA_VISIBLE_DEVICES=0 timeout 400 deno run -A --no-check bench/codec.ts --sizes ${SIZES:-64K,1M,16M,256M,1G,4G} \
  --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights --sms ${SMS:-0,8,16,32} --repeat 10 \
  --json "$R/codec.json" --svg "$R/codec.svg" > "$R/codec_cli.log" 2>&1
echo "codec cli rc=$?"
pack
