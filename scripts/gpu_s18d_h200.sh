#!/usr/bin/env bash
# Session 18, fourth call: the build to merge. Warp pairs chosen by the library (two- and four-byte types,
# calls of one round of pairs), the helper running compress_block's own histogram loop (the lone-warp
# kernels' SASS is main's again). (1) gpu_check --quick of the default and of variant 0 forced, memcheck and
# racecheck of --tiny; (2) main's build (old) against this one, same call: bf16 split twice, fp32 / fp16 / fp8
# split and bf16 default layout once, bf16 split at 16 SMs.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, .carry-run/old = main's libuzip.so and
# gpu_bench; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
# (The steps below ran inline in that call; they are device_env.sh's helpers now, same steps.)
encoder_checks
types_ab
gpu_bench_dirs r1_d1_f2_sms16 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 16 --reps 10
pack
echo "(${SECONDS}s)"
