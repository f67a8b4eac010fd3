#!/usr/bin/env bash
# Session 26, call 6: 24 block-start lines prefetched instead of 12 (new1 = exp/s26-headpf24; old = main,
# 24ca87a's codec). gpu_check --quick of new1 (library choices), then the A/B. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 100 .carry-run/new1/gpu_check --quick > "$R/check_new1_lib.log" 2>&1
echo "gpu_check new1 lib --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new1_lib.log" | head -6
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new1 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 4:2; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
