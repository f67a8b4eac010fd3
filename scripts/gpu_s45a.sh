#!/usr/bin/env bash
# Prepared in session 44 for the next device: the lean default past 16 MiB (branch exp/s44-lean-range: lean 2^12
# for split bf16 / fp32 up to 2^23 elements, lean 2^13 for bf16 / fp16 / fp32 up to 2^24) against main, one call.
# Builds carried: gpu/ = main (b04eda4), exp/ = the branch (libuzip.so, gpu_check, gpu_bench). 1. gpu_check --quick
# of exp. 2. split bf16, fp16, fp32 at 16-96 MiB on the whole chip, two rounds, and under 16 / 32 / 64 SMs once.
# Pack here: ./scripts/gpu_check.sh --build in each tree; xz into .carry-run/{gpu,exp}/; bench/results/ moved out.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=exp check_run check_exp 200 -- --quick
echo "(${SECONDS}s)"
s="16384 24576 32768 49152 65536 98304"
for r in 1 2; do
  for d in 1 2 3; do gpu_bench_dirs "d${d}_split_r$r" "gpu exp" --dtypes $d --flags 2 --sizes-kib "$s" --sms 0 --reps 10; done
  pack
done
for d in 1 2 3; do gpu_bench_dirs "d${d}_split_sms" "gpu exp" --dtypes $d --flags 2 --sizes-kib "$s" --sms 16,32,64 --reps 10; done
pack; echo "(${SECONDS}s)"
