#!/usr/bin/env bash
# Session 55, one GPU, the session's last ~390 s of device time (a start takes ~250): the merge candidate new2/
# (branch exp/s55-dec-fill: batched slot rounds for every decode table of at most 192 symbols, the compact kernels'
# few-symbol tables symbol by symbol as in main) against main (gpu/), in the order that matters if the call is cut:
# 1. gpu_check --quick of new2. 2. Two rounds (reversed) of bf16 split 64 KiB-64 MiB (20 calls back to back) and
# 256 MiB-1 GiB (whether the compact kernel's 1 GiB is main's again). 3. gpu_check --lean of new2 and memcheck of
# --tiny. gpu_s55c.sh (new3, the encoder's hoisted loads, and racecheck) is left for a later session.
# Carry [".carry-run"] (gpu/, new2/ with main's gpu_check and gpu_bench; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=new2 check_run check_new2 100 -- --quick
echo "(${SECONDS}s)"
small_large_rounds fill "gpu new2"
CHECK_DIR=new2 check_run check_lean_new2 60 -- --lean
CHECK_DIR=new2 SAN_TOOLS=memcheck san_run 60 -- --tiny
pack; echo "(${SECONDS}s)"
