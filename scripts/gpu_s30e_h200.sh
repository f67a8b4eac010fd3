#!/usr/bin/env bash
# Session 30, call 5: main's final build (bf16 tensors of 2^30 elements and more default to 2^15, as fp8's).
# (1) gpu_check --quick; (2) bf16 through the library's default block size (no --log2): split and default
# layout, 512 MiB - 4 GiB (2^15 from 2 GiB: ratio 0.6636 there, 0.6647 below), the GPU stream equal to the CPU
# codec's where gpu_bench compares them; (3) fp16 and fp32 through the default (unchanged: 2^14). gpu/ = main's
# tools and library (xz). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check_main 120 -- --quick
echo "(${SECONDS}s)"
for fl in 2 0; do
  gpu_bench_run "default_d1_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "524288 1048576 2097152 4194304" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for d in 2 3; do
  gpu_bench_run "default_d${d}_f2" gpu -- --dtypes $d --flags 2 --sizes-kib "1048576 4194304" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
