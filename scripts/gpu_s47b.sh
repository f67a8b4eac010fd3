#!/usr/bin/env bash
# Session 47, for an H200 (issue #3's card; main last ran on one in session 43): main's build (gpu/).
# 1. gpu_bench, whole chip, 16 MiB-4 GiB: fp32 split, fp16 split, fp8, bf16 default layout (bf16 split: gpu_s47a's
# gpu/ rows). 2. the codec CLI's split sweep on the whole chip, uniform and Gaussian data, 64 KiB-4 GiB, every dtype
# (CLI_T seconds, default 300). Carry [".carry-run"] (gpu/, deno.xz); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
a=(--sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_run fp32_split gpu -- --dtypes 3 --flags 2 "${a[@]}"
gpu_bench_run fp16_split gpu -- --dtypes 2 --flags 2 "${a[@]}"
gpu_bench_run fp8 gpu -- --dtypes 4 --flags 0 "${a[@]}"
gpu_bench_run bf16_default gpu -- --dtypes 1 --flags 0 "${a[@]}"
pack; echo "(${SECONDS}s)"
CLI_SHOW=gaussian codec_cli split "${CLI_T:-300}" --split --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 \
  --data uniform,gaussian --sms 0 --repeat 10
echo "(${SECONDS}s)"
