#!/usr/bin/env bash
# Session 30, call 4: 2^15 against 2^14 blocks for the two- and four-byte types with session 29's encoder
# (every kernel's rare histogram groups out of line; session 28 measured 2^15 compressing 2-7% slower than 2^14
# before it, decoding faster from 1 GiB). gpu/ = exp/s30-rounds's build run with UZIP_GPU_WHOLE_ROUNDS=0: main's
# kernels (SASS identical) and main's grids. --log2 14 and 15, 256 MiB - 4 GiB: bf16 split twice (swapped
# order), bf16 default layout, fp16 split, fp32 split. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0 UZIP_GPU_WHOLE_ROUNDS=0
S="262144 524288 1048576 2097152 4194304"
for r in 1 2; do
  order="14 15"; [ $r = 2 ] && order="15 14"
  for l in $order; do
    gpu_bench_run "r${r}_d1_f2_l$l" gpu -- --dtypes 1 --flags 2 --log2 $l --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for d in 1:0 2:2 3:2; do
  for l in 14 15; do
    gpu_bench_run "r1_d${d%:*}_f${d#*:}_l$l" gpu -- --dtypes ${d%:*} --flags ${d#*:} --log2 $l --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
