#!/usr/bin/env bash
# One H200 call for the SM-gate fault: the occupied-SM cases of gpu_check (a kernel of the test holds every
# SM the codec's budget permits) against the baseline library in .carry-run/old (same gpu_check source,
# linked to the old libuzip.so by rpath) and this build; then racecheck, and the same-call codec A/B of
# scripts/gpu_latency_ab.sh (full gpu_check, throughput and latency, memcheck). Usage (device):
# bash scripts/gpu_sm_gate.sh
set -u
source scripts/device_env.sh
for dir in old gpu; do
  timeout 120 .carry-run/$dir/gpu_check --occupied > "$R/occupied_$dir.log" 2>&1
  echo "== $dir gpu_check --occupied rc=$?"; grep -E 'occupied|PASSED|FAILED' "$R/occupied_$dir.log" | cut -c1-160
done
pack
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/racecheck.log" 2>&1
echo "== racecheck rc=$?"; tail -2 "$R/racecheck.log"
pack
bash scripts/gpu_latency_ab.sh "0"
