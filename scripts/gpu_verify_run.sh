#!/usr/bin/env bash
# Device-side: check (0 mismatches), bench, stage clocks, memcheck, in that order, within ~150 s.
# Expects .carry/gpu (scripts/gpu_check.sh --build) and .carry/gpu/prof (scripts/gpu_prof_build.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
O=${OUT:-bench/out}
mkdir -p "$O"
export NCCL_NVLS_ENABLE=0 CUDA_VISIBLE_DEVICES=0
G=.carry/gpu
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$O/smi.txt" 2>&1
timeout 60 $G/gpu_check --quick > "$O/check.log" 2>&1; echo "check rc=$?" >> "$O/check.log"
timeout 25 $G/gpu_bench "$O/bench.json" --dtypes 1,3 --sizes-kib 64,1024,16384,262144 --sms 0 --reps 10 \
  --commit "$(git rev-parse --short HEAD 2>/dev/null)" --cmd "gpu_bench --dtypes 1,3 --sizes-kib 64,1024,16384,262144 --sms 0 --reps 10" \
  > "$O/bench.txt" 2>&1
timeout 15 $G/prof/gpu_stages 1 1024 262144 > "$O/stages.txt" 2>&1
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 9 $G/gpu_check --tiny > "$O/memcheck_full.log" 2>&1
echo "memcheck rc=$?" >> "$O/memcheck_full.log"; tail -6 "$O/memcheck_full.log" > "$O/memcheck.log"
echo "==== SUMMARY"; cat "$O/smi.txt"; tail -4 "$O/check.log"; cat "$O/bench.txt" "$O/stages.txt" "$O/memcheck.log"
