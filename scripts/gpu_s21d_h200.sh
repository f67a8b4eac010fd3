#!/usr/bin/env bash
# Session 21, call 4 (branch exp/s21-dec-table): the decoder's table filled by slot rounds (load_ans_table)
# against main (old/ = 65cc522's codec) in the same call, median of 10: bf16 split, fp16, fp8 and fp32 at
# 1 MiB - 1 GiB (the table build is ~15% of a lone 2^13 bf16 block's decode); then gpu_check --quick and
# memcheck and racecheck of gpu_check --tiny (the fill uses shared atomics and warp syncs).
# Pack: .carry/old = main's tools; PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; libuzip.so
# of gpu/ and old/ xz'd, old/gpu_check and gpu/gpu_fuse_bench removed; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
check_run check 200 -- --quick
echo "(${SECONDS}s)"
SAN_TOOLS="racecheck memcheck" san_run $(((575 - SECONDS) / 2)) -- --tiny
echo "(${SECONDS}s)"
