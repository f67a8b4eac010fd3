#!/usr/bin/env bash
# Session 45, one GPU: the encoders' look-back reading two windows of predecessors a round, with a short sleep
# (branch exp/s45-lookback, built in gpu/) against main (old/), same call. 1. gpu_check --quick, memcheck and
# racecheck of gpu_check --tiny on the branch. 2. bf16 and fp32 split 1 MiB-1 GiB on the whole chip, two
# rounds; bf16 default layout, fp16 split, fp8 once; bf16 split under 16 and 32 SMs. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
quick_checks
s="1024 4096 16384 32768 65536 262144 1048576"
for r in 1 2; do
  gpu_bench_ab "d1_split_r${r}_%s" -- --dtypes 1 --flags 2 --sizes-kib "$s" --sms 0 --reps 10
  gpu_bench_ab "d3_split_r${r}_%s" -- --dtypes 3 --flags 2 --sizes-kib "$s" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_ab "d1_f0_%s" -- --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_ab "d2_split_%s" -- --dtypes 2 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_ab "d4_f0_%s" -- --dtypes 4 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_ab "d1_split_sms_%s" -- --dtypes 1 --flags 2 --sizes-kib "4096 16384 262144" --sms 16,32 --reps 10
pack; echo "(${SECONDS}s)"
