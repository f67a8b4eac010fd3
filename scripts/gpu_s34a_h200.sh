#!/usr/bin/env bash
# Session 34, call 1 (prepared in session 34, which had no device: the first call of the next session that
# has one). Verifies main's library (format version 2, session 33) where session 33 could not: the whole
# gpu_check --quick (the review's commit 18de4c5 changed the 15 lane encoder kernels' table build: same
# values, a double instead of a 64-bit integer division, never run on a GPU), a lane compression bench, the
# TypeScript GPU suites on this library, then racecheck of gpu_check --tiny with 300 s (cut off at 120 s in
# session 33's only call). Measurements are gpu_s34b's (call 2). This is session 33's gpu_s33b, split in two:
# its stages together could run past a call's 600 s. Carry [".carry-run"] (gpu/ xz: libuzip.so, gpu_check,
# gpu_bench of main; Deno; the commit file).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run all_quick 240 -- --quick
tail -2 "$R/all_quick.log"
gpu_bench_run lanes_f6 gpu -- --dtypes 1 --flags 6 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
SAN_TOOLS=racecheck san_run 300 -- --tiny
echo "(${SECONDS}s)"
