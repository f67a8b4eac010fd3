#!/usr/bin/env bash
# Session 44, for an H200 (the card): the fp16 lean default measured on the H100 in gpu_s44a, on one build:
# the stream of the default before it (2^14 blocks, --log2 14: an explicit block size takes no lean default)
# against today's default (lean 2^13), fp16 split 64 KiB-64 MiB, two rounds; bf16 split as the control; then the
# codec CLI's split sweep on the whole chip (gpu_s44c's first stage). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
s="64 256 1024 4096 16384 65536"
for r in 1 2; do
  gpu_bench_run "fp16_split_log2_14_r$r" gpu -- --dtypes 2 --flags 2 --log2 14 --sizes-kib "$s" --sms 0 --reps 10
  gpu_bench_run "fp16_split_default_r$r" gpu -- --dtypes 2 --flags 2 --sizes-kib "$s" --sms 0 --reps 10
  pack
done
gpu_bench_run bf16_split gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
echo "(${SECONDS}s)"
timeout -s TERM 200 deno run -A --no-check bench/codec.ts --json "$R/split.json" --svg "$R/split.svg" --split \
  --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights --sms 0 --repeat 10 \
  > "$R/split.txt" 2> "$R/split.log"
echo "cli rc=$? (${SECONDS}s)"; grep -E "gaussian" "$R/split.txt"
pack
