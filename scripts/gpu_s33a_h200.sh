#!/usr/bin/env bash
# Session 33, call 1: format version 2 (ANS states in [2^15, 2^31): the encoders' exact reciprocal, no
# correction step) (gpu/) against main's version-1 build (base/, b4febd2), same call: gpu_check --quick (GPU
# bytes = CPU bytes, cross decoding, damaged streams; pair and lane cases too), the codec A/B (bf16 split
# 1 MiB - 4 GiB, real bf16 weights, fp32, fp16, fp8, bf16 default layout, pair coding), then memcheck and
# racecheck of gpu_check --tiny and --pairs --tiny. Carry [".carry-run"] (gpu/, base/ xz, bf16 weights).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run all_quick 240 -- --quick
tail -2 "$R/all_quick.log"
echo "(${SECONDS}s)"
gpu_bench_dirs bf16_f2 "base gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs w_bf16_f2 "base gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
pack; echo "(${SECONDS}s)"
gpu_bench_dirs fp32_f2 "base gpu" --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs bf16_f0 "base gpu" --dtypes 1 --flags 0 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs fp16_f2 "base gpu" --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs fp8_f2 "base gpu" --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs pairs_f10 "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r2_bf16_f2 "base gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for sel in "" --pairs; do
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check $sel --tiny > "$R/san_${tool}${sel}.log" 2>&1
    echo "$tool $sel rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/san_${tool}${sel}.log" | head -2
  done
  pack; echo "(${SECONDS}s)"
done
