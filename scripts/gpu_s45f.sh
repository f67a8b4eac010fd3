#!/usr/bin/env bash
# Session 45, one GPU: main's final build (the per-SM cap merged): the TS GPU suites, the P2P suite (transfers to
# self), then racecheck of gpu_check --tiny --lean (cut off at 150 s if it runs longer). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
deno_gpu_suites
timeout 200 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_gpu_test.log" 2>&1
echo "p2p_gpu_test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_gpu_test.log" | grep -E "SELF OK|passed|failed" | tail -3
pack; echo "(${SECONDS}s)"
SAN_TOOLS=racecheck SAN_SUFFIX=lean san_run 150 -- --tiny --lean
echo "(${SECONDS}s)"
