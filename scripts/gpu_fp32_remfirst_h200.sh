#!/usr/bin/env bash
# One H200 call: fp32 blocks with both planes ANS decoded remainder-first on the vector path
# (decompress_block in cuda/gpu_decode.cuh), this build (.carry-run/gpu) against the one before
# (.carry-run/old): gpu_check and memcheck of the new build; gpu_bench on fp32 data holding bf16 values
# (low 16 mantissa bits zero: every block codes both planes) and on Gaussian fp32 as the control.
# Usage (device, after PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh with the earlier build
# in .carry/old): bash scripts/gpu_fp32_remfirst_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -2
pack
make_mantissa_data
for r in 1 2; do
  for b in gpu old; do
    gpu_bench_run "bf16vals_fp32_${b}_r$r" $b -- --dtypes 3 --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/bf16vals_fp32.bin
    gpu_bench_run "g_fp32_${b}_r$r" $b -- --dtypes 3 --flags 0 --sizes-kib 262144 --sms 0 --reps 10
  done
done
pack
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_memcheck.log" 2>&1
echo "== memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
pack
