#!/usr/bin/env bash
# Session 43, on an H200 only (the issue's card; session 42 got only an H100): session 42's new default against
# main in one call, and the data for the decoder's kernel choice at small sizes. gpu/ = 4efa333's native build
# (477b621's kernels: split bf16 / fp32 calls of at most 16 MiB lean at 2^12 by default), old/ = main at 18fb01e.
# 1. gpu_check --quick. 2. old against new: bf16 split 1 MiB-1 GiB. 3. the library's decoder choice against the
# one-round kernel forced (UZIP_GPU_DEC_VARIANT=3), 64 KiB-16 MiB: bf16 split and default layout, fp16, fp32
# split, fp8; and the default entry (no dtype). 4. old against new: fp32 split and the bf16 default layout. Carry [".carry-run"] (gpu/, old/,
# deno.xz, commit); bench/results/ moved out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
check_run check 200 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
small="64 256 1024 4096 16384"
for df in "1 2" "1 0" "2 0" "3 2" "4 0"; do
  set -- $df
  gpu_bench_run "rule_d$1_f$2" gpu -- --dtypes $1 --flags $2 --sizes-kib "$small" --sms 0 --reps 10
  gpu_bench_run "v3_d$1_f$2" gpu UZIP_GPU_DEC_VARIANT=3 -- --dtypes $1 --flags $2 --sizes-kib "$small" --sms 0 --reps 10
  gpu_bench_run "nohint_d$1_f$2" gpu -- --dtypes $1 --flags $2 --sizes-kib "$small" --sms 0 --reps 10 --dec-hint 0
  pack
done
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
