#!/usr/bin/env bash
# Codec correctness on one GPU with the packed bundle (scripts/pack_device.sh, carry .carry-run):
# scripts/gpu_check.sh without its bench (gpu_check: GPU bytes == CPU bytes, cross-decoding, corrupt
# streams; compute-sanitizer memcheck and racecheck of a --tiny run), logs into $R, then a summary.
# Usage (device): bash scripts/gpu_sanitize.sh [--quick]
set -u
source scripts/device_env.sh
UZIP_GPU_TOOLS=.carry-run/gpu OUT=$R bash scripts/gpu_check.sh --no-bench "$@" > "$R/gpu_check_sh.log" 2>&1
echo "gpu_check.sh rc=$?"
grep -hE 'PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY' "$R/check.log" "$R/memcheck.log" "$R/racecheck.log"
pack
