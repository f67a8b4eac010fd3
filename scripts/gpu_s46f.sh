#!/usr/bin/env bash
# Session 46, for an H200 (issue #3's card; none has run main since session 43): main's build (carried in old/)
# 1. gpu_bench bf16 split 1 MiB-4 GiB (whole chip, two rounds) and fp16 split 64 KiB-64 MiB with the stream of the
# default before session 44 (--log2 14) against today's (lean 2^13), as gpu_s44d; 2. the codec CLI's split sweep on
# the whole chip, uniform and Gaussian data, 64 KiB-4 GiB, every dtype. Carry [".carry-run"] (old/, deno.xz);
# bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
export UZIP_LIB="$PWD/.carry-run/old/libuzip.so"
tail -1 "$R/gpu.txt"
for r in 1 2; do
  gpu_bench_run "bf16_split_r$r" old -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 \
    --reps 10 --max-mib 4096
done
s="64 256 1024 4096 16384 65536"
gpu_bench_run fp16_split_log2_14 old -- --dtypes 2 --flags 2 --log2 14 --sizes-kib "$s" --sms 0 --reps 10
gpu_bench_run fp16_split_default old -- --dtypes 2 --flags 2 --sizes-kib "$s" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
CLI_SHOW=gaussian codec_cli split 300 --split --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 \
  --data uniform,gaussian --sms 0 --repeat 10
echo "(${SECONDS}s)"
