#!/usr/bin/env bash
# Session 32, call 1: the first GPU pair decoder (gpu_pairs_decode.cuh, uzipGpuDecompressPairs). gpu_check --pairs
# --quick (GPU<->CPU bytes, GPU decode of CPU streams incl. 2^16 blocks and unaligned destinations, damaged
# streams), memcheck and racecheck of gpu_check --pairs --tiny, then pair coding (flags 10) against byte coding
# (flags 2) in the same call: bf16 and fp32, 16 MiB - 4 GiB, two rounds; then the whole gpu_check --quick.
# Carry [".carry-run"] (gpu/ xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_quick 240 -- --pairs --quick
tail -3 "$R/pairs_quick.log"
grep -E "^corrupt" "$R/pairs_quick.log" | tail -5
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --pairs --tiny > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|pair coding" "$R/san_$tool.log" | head -3
done
pack; echo "(${SECONDS}s)"
for round in 1 2; do
  for fl in 10 2; do
    gpu_bench_run "r${round}_bf16_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for fl in 10 2; do
  gpu_bench_run "fp32_f$fl" gpu -- --dtypes 3 --flags $fl --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
done
for fl in 10 2; do
  gpu_bench_run "w_bf16_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
done
pack; echo "(${SECONDS}s)"
check_run all_quick 200 -- --quick
tail -2 "$R/all_quick.log"
pack; echo "(${SECONDS}s)"
