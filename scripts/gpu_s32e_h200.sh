#!/usr/bin/env bash
# Session 32, call 5: the pair decoder's escapes from a window of 128 in registers, by shuffle (gpu/), against
# call 4's build (base/, 17de6ca): gpu_check --pairs --quick and the sanitizers of gpu/, then pair decoding of
# both builds on real bf16 weights and synthetic bf16, two rounds. Carry [".carry-run"] (gpu/, base/ xz, bf16
# weights).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_quick 240 -- --pairs --quick
tail -2 "$R/pairs_quick.log"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --pairs --tiny > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|pair coding" "$R/san_$tool.log" | head -3
done
pack; echo "(${SECONDS}s)"
for round in 1 2; do
  gpu_bench_dirs "r${round}_w_bf16_f10" "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
  gpu_bench_dirs "r${round}_bf16_f10" "base gpu" --dtypes 1 --flags 10 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
