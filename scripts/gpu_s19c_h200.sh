#!/usr/bin/env bash
# Session 19, third call: the pair coder's shed test for the next step formed before its quotient
# correction is known (enc_step_sts_ahead; the lone-warp kernels are unchanged). encoder_checks, then main's
# build (old, 09c8629) against this one, same call, median of 20: bf16 split twice, bf16 default layout,
# fp16 and fp32 split at 1-16 MiB (the sizes where the library picks warp pairs, and 16 MiB beside them).
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh with .carry/old = main's build; run
# with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
encoder_checks
S="1024 4096 8192 16384"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "old gpu" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
done
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "$S" --sms 0 --reps 20
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
pack
echo "(${SECONDS}s)"
