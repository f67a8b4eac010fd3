#!/usr/bin/env bash
# Session 25, call 9 (run as this one command line on the machine still warm from call 8): racecheck of
# gpu_check --tiny with the compact decoder forced, on new7 (exp/s25-entry). Carry [".carry-run"].
source scripts/device_env.sh
UZIP_GPU_DEC_VARIANT=4 timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 .carry-run/new7/gpu_check --tiny \
  > "$R/san_racecheck_new7_v4.log" 2>&1
echo "racecheck new7 v4 rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|FAILED|PASSED" "$R/san_racecheck_new7_v4.log" | head -4
pack
echo "(${SECONDS}s)"
