#!/usr/bin/env bash
# Session 32, call 4: escapes of the pair decoder by bit-sliced ballots (gpu/) against call 3's build (base/,
# e856ed6): gpu_check --pairs --quick, the sanitizers and the whole gpu_check --quick of gpu/, then pair
# decoding of both builds on real bf16 weights and synthetic bf16 (1 MiB - 1 GiB) against byte coding, two
# rounds. Carry [".carry-run"] (gpu/, base/ xz, bf16 weights).
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
  gpu_bench_dirs "r${round}_bf16_f10" "base gpu" --dtypes 1 --flags 10 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_run w_bf16_f2 gpu -- --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
gpu_bench_run bf16_f2 gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
check_run all_quick 200 -- --quick
tail -2 "$R/all_quick.log"
pack; echo "(${SECONDS}s)"
