#!/usr/bin/env bash
# Session 27's last addition, not run in session 27 (its device time was spent): gpu_check's occupied-SM
# cases with no SM budget (a one-round decode by warp index and a many-round call, each while a test
# kernel holds all but 16 SMs; a hang is the watchdog's FAIL), then the whole --quick run. gpu/ = main's
# gpu_check and library (build: scripts/gpu_check.sh --build, then copy gpu_check and an xz of
# build/libuzip.so into .carry-run/gpu/). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 120 .carry-run/gpu/gpu_check --occupied > "$R/check_occupied.log" 2>&1
echo "gpu_check --occupied rc=$?"; grep -E "occupied SMs|FAIL" "$R/check_occupied.log" | head -12
pack; echo "(${SECONDS}s)"
check_run check_main 100 -- --quick
pack; echo "(${SECONDS}s)"
