#!/usr/bin/env bash
# Session 31, call 10: main's final build (the launcher and pass-A refactor: pair and lane kernels' SASS equal to
# call 8's, function for function): the TypeScript GPU suites (with the pair-coding test of
# tests/device_gpu_test.ts) and gpu_check --pairs --quick. Carry [".carry-run"] (gpu/ xz, deno.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
deno_gpu_suites
echo "(${SECONDS}s)"
check_run pairs_check 300 -- --pairs --quick
echo "(${SECONDS}s)"
