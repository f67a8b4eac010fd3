#!/usr/bin/env bash
# One H200 call: the compress kernel's stage copies with more loads in flight (16 / 8 chunks per lane; the
# histogram pass's wider loads of folder 3 taken back), the lone-section helper (finish_lone_section), and
# the decoder's vector-path step with 32-bit shared addresses (lds_u32 / lds_u16 in cuda/gpu_decode.cuh),
# this build (.carry-run/gpu) against 2954a92 (.carry-run/old), same call:
#   1. gpu_check (GPU bytes = CPU bytes, cross-decoding, corrupt streams), and memcheck / racecheck of --tiny;
#   2. gpu_bench, Gaussian bf16 / fp16 / fp32, default layout, 16 MiB, 256 MiB and 1 GiB, new and old
#      alternating, twice; bf16 split layout and bf16 weights once each;
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data PACK_DATA_DTYPES=bf16 bash scripts/pack_device.sh`
# here with the earlier build in .carry/old): bash scripts/gpu_copies2_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -3
for t in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $t --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/$t.log" 2>&1
  echo "== $t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$R/$t.log" | tail -2
done
pack
S=16384,262144,1048576
for r in 1 2 3; do
  for b in gpu old; do
    gpu_bench_run "g_${b}_r$r" $b -- --dtypes 1,2,3 --flags 0 --sizes-kib $S --sms 0 --reps 10
  done
  pack
done
for b in gpu old; do
  gpu_bench_run "split_$b" $b -- --dtypes 1 --flags 2 --sizes-kib $S --sms 0 --reps 10
  gpu_bench_run "w_bf16_$b" $b -- --dtypes 1 --flags 0 --sizes-kib $S --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
done
pack
