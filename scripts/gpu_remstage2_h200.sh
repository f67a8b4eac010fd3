#!/usr/bin/env bash
# One H200 call, after scripts/gpu_remstage_h200.sh: the staged remainder section with the stage's stride
# kept (words end one u16 below the plane's end; .carry-run/gpu) against the first form (64 bytes more
# per stage; .carry-run/new1) and the build before both (.carry-run/old). gpu_check and memcheck of the
# new build, then gpu_bench alternating, twice.
# Usage (device; carry .carry-run with new1/ and old/ copied in): bash scripts/gpu_remstage2_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -2
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_memcheck.log" 2>&1
echo "== memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
pack
make_mantissa_data
for r in 1 2; do
  for b in gpu new1 old; do
    gpu_bench_run "g_${b}_r$r" $b -- --dtypes 1,2 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10
    gpu_bench_run "lowbits_bf16_${b}_r$r" $b -- --dtypes 1 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/lowbits_bf16.bin
    gpu_bench_run "w_fp16_${b}_r$r" $b -- --dtypes 2 --flags 0 --sizes-kib 262144 --sms 0 --reps 10 --input /tmp/wdata/weights_fp16.bin
  done
  pack
done
