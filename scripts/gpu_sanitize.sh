#!/usr/bin/env bash
# Codec correctness on one GPU with the packed bundle (scripts/pack_device.sh, carry .carry-run): gpu_check
# (GPU bytes == CPU bytes, cross-decoding, corrupt streams), then compute-sanitizer memcheck and racecheck
# of a small run (--tiny). Usage (device): bash scripts/gpu_sanitize.sh [--quick]
set -u
source scripts/device_env.sh
timeout 240 .carry-run/gpu/gpu_check ${1:-} > "$R/gpu_check.log" 2>&1
echo "gpu_check rc=$?"; grep -E 'PASSED|FAILED' "$R/gpu_check.log" | tail -2
pack
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$R/$tool.log" | tail -2
  pack
done
