#!/usr/bin/env bash
# Session 21, call 2 (branch exp/s20-dec-rule): the refined rule (compact decoder from two rounds of the
# default kernel's warps, at any SM budget) against main (old/) in the same call, decompress median of 10:
# bf16 split 64-256 MiB around the border (160 MiB = 5120 blocks stays default, 192 MiB = 6144 goes compact)
# and 1 GiB, variant 4 forced at 128-192 MiB to see both sides of the border, fp16 128-256 MiB, bf16 under 8
# and 16 SMs, fp32 with variant 4 forced (unmeasured in the compact layout) against its wide kernel; then
# gpu_check --quick with the library's choice. Pack as for gpu_s21a; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "65536 131072 163840 196608 262144 1048576" --sms 0 --reps 10
gpu_bench_run r1_d1_f2_dec4 gpu UZIP_GPU_DEC_VARIANT=4 -- --dtypes 1 --flags 2 --sizes-kib "131072 163840 196608" --sms 0 --reps 10
pack
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "131072 196608 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f2_sms "old gpu" --dtypes 1 --flags 2 --sizes-kib "65536 262144" --sms 8,16 --reps 10
gpu_bench_dirs r1_d3_f2 "old" --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run r1_d3_f2_dec4 gpu UZIP_GPU_DEC_VARIANT=4 -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "163840 196608 262144" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
check_run check 200 -- --quick
echo "(${SECONDS}s)"
