#!/usr/bin/env bash
# Session 19, second call: the histogram pass's rare groups out of line only in the two-byte warp-pair
# kernel (compress_kernel<2, 8, 4, true>; every other kernel's SASS is main's, or differs by register
# names and the order of the checksum terms: <2, 4, 5>). encoder_checks, then main's build (old) against
# this one, same call: bf16 split twice and default layout once at 1-16 MiB, fp16 split at 1-16 MiB, and bf16
# split at 256 MiB and 1 GiB (lone warps: variants 0 and 1) as the guard.
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
pack
gpu_bench_dirs big_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
