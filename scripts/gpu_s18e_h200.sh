#!/usr/bin/env bash
# Session 18, fifth call: the merged rule (warp pairs for two- and four-byte types up to half a round of
# pairs). gpu_check --quick of the default; main's build (old) against this one at the sizes the rule
# decides (1 - 16 MiB: bf16 split and default layout, fp32, fp16) and bf16 256 MiB, same call.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, .carry-run/old = main's libuzip.so and
# gpu_bench; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 200 -- --quick
echo "(${SECONDS}s)"
S="1024 4096 8192 16384"
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "$S 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
