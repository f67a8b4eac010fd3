#!/usr/bin/env bash
# Session 44, main's build with the fp16 lean default (gpu/): its gpu_check --quick; then the decoder's kernel for
# small fp32 calls given their dtype. The rule (uzip_dec_kernel, cuda/dec_variant.h) sends fp32 on at least half
# the chip to the wide kernel at every size, while one- and two-byte types of at most one round take the
# one-round kernel; fp32 was never timed there with its dtype. So: fp32 split and default layout, 64 KiB-64 MiB,
# the library's choice (wide) against the one-round kernel forced (UZIP_GPU_DEC_VARIANT=3) and against no dtype,
# two rounds; then memcheck of gpu_check --tiny --lean. Carry [".carry-run"]; bench/results/ moved out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
check_run check_main 200 -- --quick
echo "(${SECONDS}s)"
s="64 256 1024 4096 16384 65536"
for r in 1 2; do
  for f in 2 0; do
    gpu_bench_run "fp32_f${f}_wide_r$r" gpu -- --dtypes 3 --flags $f --sizes-kib "$s" --sms 0 --reps 10
    gpu_bench_run "fp32_f${f}_oneround_r$r" gpu UZIP_GPU_DEC_VARIANT=3 -- --dtypes 3 --flags $f --sizes-kib "$s" --sms 0 --reps 10
    gpu_bench_run "fp32_f${f}_nohint_r$r" gpu -- --dtypes 3 --flags $f --sizes-kib "$s" --sms 0 --reps 10 --dec-hint 0
  done
  pack
done
echo "(${SECONDS}s)"
SAN_TOOLS=memcheck SAN_SUFFIX=tiny_lean san_run 240 -- --tiny --lean
echo "(${SECONDS}s)"
