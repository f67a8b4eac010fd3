#!/usr/bin/env bash
# Session 22, call 6: the encoder variant rule under SM budgets (16 and 32 SMs), variants 0 and 1 forced
# (UZIP_GPU_ENC_VARIANT), bf16 split 256 MiB and 1 GiB (16 SMs: 32 and 128 rounds of variant 0's warps), median
# of 10, with main's merged build carried as new1/ (the select-form step). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for s in 16 32; do
  for v in 0 1; do
    gpu_bench_run "sms${s}_d1_f2_v$v" new1 UZIP_GPU_ENC_VARIANT=$v -- --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms $s --reps 10
  done
  pack
  echo "(${SECONDS}s)"
done
