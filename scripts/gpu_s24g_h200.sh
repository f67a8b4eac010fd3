#!/usr/bin/env bash
# Session 24, call 6: the coded words through a shared-memory ring, written to the stage in 16-byte chunks
# (new8 = exp/s24-ring; ~41% of the encoder's L2 requests were its 2-byte word stores, call 5), against main
# (old = 8b1bccd's codec) in one call: bf16 split two rounds, fp16 / fp32 / fp8 split and bf16 default
# layout; gpu_check --quick of new8; then memcheck and racecheck of it. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old new8" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new8 old" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new8" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
timeout 200 .carry-run/new8/gpu_check --quick > "$R/check_new8.log" 2>&1
echo "gpu_check new8 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new8.log" | head -6
pack
echo "(${SECONDS}s)"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new8/gpu_check --tiny > "$R/san_${tool}_new8.log" 2>&1
  echo "compute-sanitizer $tool new8 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_${tool}_new8.log" | head -3
  pack
done
echo "(${SECONDS}s)"
