#!/usr/bin/env bash
# Session 17, fourth call: the remainder bytes of two-byte elements in five instructions per four elements
# (cuda/gpu_bits.cuh rem_bytes4: the interleaved encoder's histogram pass, the lane encoder's pass A) and the
# lane decoder's join as one select, against new1/ (f44b849, main after 3-enc-arith) and, for bf16 once,
# old/ (eaa640a, main at the session's start): gpu_check --quick (lane streams included), memcheck and
# racecheck of --tiny, then bf16 split twice, fp16 split, bf16 default layout, bf16 lane streams.
# Pack: .carry/old = eaa640a, .carry/new1 = the f44b849 build; PACK_DENO=none PACK_WEIGHTS=none
# bash scripts/pack_device.sh, then new1's gpu_bench, gpu_check and libuzip.so copied to .carry-run/new1;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
quick_checks
bf16_split_rounds
gpu_bench_dirs r1_d2_f2 "new1 gpu" --dtypes 2 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "new1 gpu" --dtypes 1 --flags 0 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_lanes "new1 gpu" --dtypes 1 --flags 6 --log2 14 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
