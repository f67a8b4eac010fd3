#!/usr/bin/env bash
# Session 39, third call: compute-sanitizer racecheck of main's gpu_check --tiny in parts (session 38's and this
# session's second call ran out of time on the whole): --bytes (the default coding's cases, whose encoder
# table build changed in session 38), then --lean, each line-buffered so that a cut run still shows how far
# it got (PARTS="reduce:80 pairs:80 lanes:80" for the others). Carry [".carry-run"]: gpu/ (xz; gpu_check with --bytes) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
G=.carry-run/gpu/gpu_check
for part_s in ${PARTS:-bytes:300 lean:110}; do
  part=${part_s%:*}
  timeout "${part_s#*:}" stdbuf -oL compute-sanitizer --tool racecheck --error-exitcode 9 $G --tiny --$part \
    > "$R/san_racecheck_tiny_$part.log" 2>&1
  echo "racecheck --tiny --$part rc=$?: $(grep -E "RACECHECK SUMMARY|FAILED|PASSED" "$R/san_racecheck_tiny_$part.log" | head -3)"
  pack; echo "(${SECONDS}s)"
done
