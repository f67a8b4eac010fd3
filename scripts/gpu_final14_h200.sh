#!/usr/bin/env bash
# Session 14's last build on one H200: gpu_check (every case: the interleaved coding and lane streams),
# compute-sanitizer memcheck and racecheck of gpu_check --tiny, then gpu_bench of bf16 in the default
# layout, the split layout and lane streams (1 MiB-1 GiB, whole chip, the d2d copy in the same call) to
# compare with session 13's sweep; with Deno carried, the TS device suite too. Pack: PACK_WEIGHTS=none
# bash scripts/pack_device.sh (PACK_DENO=none leaves the TS suite out);
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
timeout 200 .carry-run/gpu/gpu_check ${CHECK_ARGS:-} > "$R/check.log" 2>&1
echo "gpu_check rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check.log" | head -12
pack
if command -v deno > /dev/null; then  # the TS device suite (PACK_DENO unset: Deno carried)
  timeout 120 deno test -A --no-check tests/device_gpu_test.ts > "$R/device_gpu_test.log" 2>&1
  echo "device_gpu_test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/device_gpu_test.log" | grep -E "passed|FAILED|failed" | tail -3
  pack
fi
for fl in 0:default 2:split 6:lanes; do
  gpu_bench_run "bf16_${fl#*:}" gpu -- --dtypes 1 --flags ${fl%%:*} --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
done
pack
for tool in memcheck racecheck; do
  timeout ${SAN_TIMEOUT:-100} compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_$tool.log" 2>&1
  echo "compute-sanitizer $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -4
  pack
done
