#!/usr/bin/env bash
# One H200 call: two-byte blocks with an ANS remainder plane coded once into the stage and deferred
# (compress_block in cuda/gpu_encode.cuh), this build (.carry-run/gpu) against the one before
# (.carry-run/old), same call:
#   1. gpu_check and gpu_check --occupied (bytes = CPU bytes: sparse, int-like and the remainder-sample
#      cases code such blocks), compute-sanitizer memcheck and racecheck of gpu_check --tiny;
#   2. gpu_bench, default layout, new and old alternating twice: fp16 and bf16 real weights (fp16's have
#      ANS remainder planes), the remainder-compressible synthetic data of gpu_bench --input files made
#      here, and Gaussian as the control.
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh` with the earlier
# build in .carry/old): bash scripts/gpu_remstage_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL|remainder samples' "$R/check.log" | tail -4
timeout 120 .carry-run/gpu/gpu_check --occupied > "$R/check_occupied.log" 2>&1
echo "== gpu_check --occupied rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check_occupied.log" | tail -2
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_$tool.log" 2>&1
  echo "== $tool rc=$?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$R/san_$tool.log" | tail -2 | tr '\n' ' ')"
done
pack
# Remainder-compressible two-byte data: Gaussian bf16 with the low 4 mantissa bits cleared (an fp32 source
# of few significant bits; the remainder plane codes to ~0.6 of raw): make_mantissa_data (device_env.sh).
make_mantissa_data
for r in 1 2; do
  for b in gpu old; do
    gpu_bench_run "w_fp16_${b}_r$r" $b -- --dtypes 2 --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/weights_fp16.bin
    gpu_bench_run "w_bf16_${b}_r$r" $b -- --dtypes 1 --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
    [ -f /tmp/wdata/lowbits_bf16.bin ] && gpu_bench_run "lowbits_bf16_${b}_r$r" $b -- --dtypes 1 --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/lowbits_bf16.bin
    gpu_bench_run "g_${b}_r$r" $b -- --dtypes 1,2 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10
  done
  pack
done
