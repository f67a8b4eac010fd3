#!/usr/bin/env bash
# Session 31, call 8: the pair encoder with its shared loads out of bank conflict (ring vectors 512 bytes apart, the
# table swizzled, the second code pre-shifted) and words copied 32-bit (after call 7's ncu). gpu_check --pairs
# --quick; also the whole --quick run (every other path of this build). Then compress speed against byte coding in the same
# call (bf16 two rounds, fp32, real bf16 weights with the CPU codec's stream compared), every pair stream
# decoded by the CPU codec; memcheck and racecheck of gpu_check --pairs --tiny. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_check 300 -- --pairs --quick
S="1024 16384 262144 1048576 4194304"
for r in 1 2; do
  for fl in 2 10; do
    gpu_bench_run "r${r}_d1_f$fl" gpu -- --dtypes 1 --flags $fl --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for fl in 2 10; do
  gpu_bench_run "r1_d3_f$fl" gpu -- --dtypes 3 --flags $fl --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_run "w_d1_f$fl" gpu -- --dtypes 1 --flags $fl --input /tmp/wdata/weights_bf16.bin \
    --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
SAN_SUFFIX=pairs san_run 150 -- --pairs --tiny
echo "(${SECONDS}s)"
check_run quick_check 300 -- --quick
echo "(${SECONDS}s)"
