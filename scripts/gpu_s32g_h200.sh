#!/usr/bin/env bash
# Session 32, call 7: the review's refactor (the lane and pair decoders' block opening and checksum in one
# place: split_block_open, split_block_checksum; both kernels' device code changed): the whole gpu_check --quick
# (lane and pair cases among them), memcheck and racecheck of the lane and pair cases, and decode speed of
# pair and lane streams against call 4's build (base/, 17de6ca). Carry [".carry-run"] (gpu/, base/ xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run all_quick 200 -- --quick
tail -2 "$R/all_quick.log"
for sel in --pairs --lanes; do
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check $sel --tiny > "$R/san_${tool}${sel}.log" 2>&1
    echo "$tool $sel rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|pair coding|lane streams" "$R/san_${tool}${sel}.log" | head -3
  done
done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs bf16_f10 "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs bf16_f6 "base gpu" --dtypes 1 --flags 6 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
