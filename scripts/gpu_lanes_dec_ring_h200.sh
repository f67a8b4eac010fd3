#!/usr/bin/env bash
# The lane decoder reading each lane's words through a cp.async ring in shared memory (the default now)
# against the words from global memory two ahead (UZIP_GPU_LANES_DEC_VARIANT=1), one H200, one device call
# (session 15): gpu_check --lanes (every decode path and damaged stream) with each, memcheck and racecheck
# of the ring, then gpu_bench of lane streams with each decoder against the interleaved split layout, d2d
# copy in each call. Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry
# [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
timeout 120 .carry-run/gpu/gpu_check --lanes > "$R/check_lanes.log" 2>&1
echo "gpu_check --lanes rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_lanes.log" | head -6
UZIP_GPU_LANES_DEC_VARIANT=1 timeout 100 .carry-run/gpu/gpu_check --lanes --quick > "$R/check_lanes_dec1.log" 2>&1
echo "gpu_check --lanes --quick decoder 1 rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/check_lanes_dec1.log" | head -4
pack
for d in 1 3 2; do
  gpu_bench_run "lanes_ring_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  gpu_bench_run "lanes_old_d$d" gpu UZIP_GPU_LANES_DEC_VARIANT=1 -- --dtypes $d --flags 6 --log2 14 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  gpu_bench_run "split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  pack
done
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --lanes --tiny > "$R/san_$tool.log" 2>&1
  echo "compute-sanitizer $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_$tool.log" | head -3
  pack
done
