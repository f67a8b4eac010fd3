#!/usr/bin/env bash
# Session 28, call 6: main after the merge and the fp8 default (gpu/): fp8 e4m3 at the library's default
# block size (log2 0: 2^15 from 2^30 elements, 2^14 below) at 256 MiB, 1 and 4 GiB, with round-trip checks.
# Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
xz -dc .carry-run/gpu/gpu_bench.xz > .carry-run/gpu/gpu_bench && chmod +x .carry-run/gpu/gpu_bench
gpu_bench_run d4_default gpu -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
