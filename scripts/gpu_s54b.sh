#!/usr/bin/env bash
# Session 54, one GPU of either kind: main after the merge of the kernels' end in one relaxed atomic (gpu/, built by
# scripts/gpu_check.sh --build at 470fd1f; its codec object has the SASS of gpu_s54a.sh's new4/).
# 1. The TypeScript GPU suites on it. 2. gpu_check --quick, memcheck and racecheck of --tiny (quick_checks).
# 3. On an H200 only: bf16 split 64 KiB-64 MiB back to back (the README's small-call rows are H200 figures) and
# main's fp32 split rows 256 MiB-4 GiB (owed to the README since session 50), two rounds.
# Carry [".carry-run"] (gpu/, deno.xz); bench/results/ out of the tree (64 MiB).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
deno_gpu_suites
echo "(${SECONDS}s)"
quick_checks
pack
if grep -q H200 "$R/gpu.txt"; then
  gpu_bench_rounds bf16_small_h200 "gpu gpu" --dtypes 1 --flags 2 --sizes-kib "64 1024 4096 16384 65536" --sms 0 --reps 20 --max-mib 64
  gpu_bench_rounds fp32_h200 "gpu gpu" --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
fi
pack; echo "(${SECONDS}s)"
