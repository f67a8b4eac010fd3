#!/usr/bin/env bash
# Session 42, on an H200 only (the issue's card; calls 1-2 got an H100): the new default against main in one call.
# gpu/ = 4efa333's native build (split bf16 / fp32 calls of at most 16 MiB lean at 2^12 by default, decoded by the
# byte kernels out of line), old/ = main at 18fb01e. gpu_check --quick, then old against new: bf16 and fp32 split
# 1 MiB-1 GiB twice, the bf16 default layout once. Carry [".carry-run"] (gpu/, old/, deno.xz, commit); bench/results/
# moved out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
check_run check 200 -- --quick
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_dirs "r${r}_d3_f2" "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
