#!/usr/bin/env bash
# Session 45, one GPU: main's final build (the per-SM cap merged): the TS GPU suites, the P2P suite (transfers to
# self), then racecheck of gpu_check --tiny --lean (cut off at 150 s if it runs longer). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
deno_gpu_suites
p2p_suite
echo "(${SECONDS}s)"
SAN_TOOLS=racecheck SAN_SUFFIX=lean san_run 150 -- --tiny --lean
echo "(${SECONDS}s)"
