#!/usr/bin/env bash
# Prepared in session 43 for the next H200: lean 2^13 as the default coding of small split fp16
# (branch exp/s43-fp16-lean; merged in session 44 as 50ac9b7) against main, in one call.
# Builds carried: gpu/ = main (libuzip.so, gpu_bench), exp/ = the branch (libuzip.so, gpu_check, gpu_bench).
# 1. gpu_check --quick of exp (GPU bytes of the new default equal the CPU's; it fails if a small split fp16
# default stream is not lean). 2. fp16 split, main against exp, 64 KiB-16 MiB and 64 MiB (past the rule), two
# rounds, with the dtype given and without; bf16 split once as the control (unchanged). 3. The option-forced
# twin on main (gpu_s43c's first part), so the branch's figures can be checked against the same stream.
# Pack here: ./scripts/gpu_check.sh --build in each tree; xz libuzip.so and the tools into .carry-run/{gpu,exp}/;
# bench/results/ moved out of the tree for the call; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=exp check_run check_exp 200 -- --quick
echo "(${SECONDS}s)"
s="64 256 1024 4096 16384 65536"
for r in 1 2; do
  gpu_bench_dirs "fp16_split_r$r" "gpu exp" --dtypes 2 --flags 2 --sizes-kib "$s" --sms 0 --reps 10
  gpu_bench_dirs "fp16_split_nohint_r$r" "gpu exp" --dtypes 2 --flags 2 --sizes-kib "$s" --sms 0 --reps 10 --dec-hint 0
  pack
done
gpu_bench_dirs bf16_split "gpu exp" --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 10
gpu_bench_run fp16_split_lean13_forced gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes 2 --flags 18 --log2 13 \
  --sizes-kib "$s" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
