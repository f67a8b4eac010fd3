#!/usr/bin/env bash
# Session 38, third call: main after both merges (the staged fp32 symbol plane, the encoder's table by rows),
# whose build is the a1/ build of the second call: gpu_check --quick, then compute-sanitizer memcheck and
# racecheck of the small cases (--tiny). Carry [".carry-run"]: gpu/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run quick 200 -- --quick
echo "(${SECONDS}s)"
SAN_TOOLS=memcheck SAN_SUFFIX=tiny san_run 130 -- --tiny
echo "(${SECONDS}s)"
SAN_TOOLS=racecheck SAN_SUFFIX=tiny san_run 150 -- --tiny
echo "(${SECONDS}s)"
