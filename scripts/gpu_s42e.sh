#!/usr/bin/env bash
# Session 42, on an H200 only (the issue's card; calls 1-2 got an H100): the new default against main in one call.
# gpu/ = 4efa333's native build (split bf16 / fp32 calls of at most 16 MiB lean at 2^12 by default, decoded by the
# byte kernels out of line), old/ = main at 18fb01e. gpu_check --quick, then old against new: bf16 and fp32 split
# bf16 split 1 MiB-1 GiB, fp32 split and the bf16 default layout
# 1-256 MiB, then bf16 split 1-16 MiB again (a call that fits the session's last ~5 min of device time). Carry [".carry-run"] (gpu/, old/, deno.xz, commit); bench/results/
# moved out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
check_run check 200 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
