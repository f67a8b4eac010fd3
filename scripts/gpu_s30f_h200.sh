#!/usr/bin/env bash
# Session 30, call 6: what call 4 left to one round or to synthetic data. Main's final build (gpu/), --log2 14
# against 15 at 1 and 2 GiB (4 GiB for synthetic fp16): (1) real bf16 weights (the recognition model, --input, tiled; the GPU stream
# must equal the CPU codec's), split and default layout; (2) fp16 split a second time, and its real weights.
# Carry [".carry-run"] (gpu/ tools and library xz, weights/ bf16 and fp16 xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="1048576 2097152 4194304"
W="1048576 2097152"  # the CPU codec checks each weights stream
for fl in 2 0; do
  for l in 14 15; do
    gpu_bench_run "w_d1_f${fl}_l$l" gpu -- --dtypes 1 --flags $fl --log2 $l --input /tmp/wdata/weights_bf16.bin \
      --sizes-kib "$W" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for l in 15 14; do
  gpu_bench_run "r2_d2_f2_l$l" gpu -- --dtypes 2 --flags 2 --log2 $l --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_run "w_d2_f2_l$l" gpu -- --dtypes 2 --flags 2 --log2 $l --input /tmp/wdata/weights_fp16.bin --sizes-kib "$W" \
    --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
