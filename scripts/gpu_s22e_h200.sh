#!/usr/bin/env bash
# Session 22, call 5 (main after the merge of exp/s22-enc-pipe; its build is carried as new1/): the encoder
# variant rule (cuda/enc_variant.h: variant 1, 4-step groups at 20 warps per SM, from 15 rounds of blocks for
# two-byte types, 7 for one-byte) re-measured with the select-form step, variants 0 and 1 forced
# (UZIP_GPU_ENC_VARIANT) at 256 MiB - 2 GiB, median of 10, two rounds.
# Pack: the merged build in .carry-run/new1 (gpu_bench, libuzip.so.xz); carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  for v in 0 1; do
    gpu_bench_run "r${r}_d1_f2_v$v" new1 UZIP_GPU_ENC_VARIANT=$v -- --dtypes 1 --flags 2 --sizes-kib "262144 524288 1048576 2097152" --sms 0 --reps 10
    gpu_bench_run "r${r}_d1_f0_v$v" new1 UZIP_GPU_ENC_VARIANT=$v -- --dtypes 1 --flags 0 --sizes-kib "524288 1048576 2097152" --sms 0 --reps 10
    gpu_bench_run "r${r}_d4_f2_v$v" new1 UZIP_GPU_ENC_VARIANT=$v -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
  pack
  echo "(${SECONDS}s)"
done
