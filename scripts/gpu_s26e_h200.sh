#!/usr/bin/env bash
# Session 26, call 7: the encoder's taken block prefetched into the L2 line by line (prefetch.global.L2, 8
# a lane for 2^14 bf16) before its histogram pass (new1 = exp/s26-encpf; old = main, 24ca87a's codec):
# session 23's notes left the per-lane form untried after the TMA bulk form lost 3-5%. gpu_check --quick of
# new1, then the A/B (compression is what changes). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 100 .carry-run/new1/gpu_check --quick > "$R/check_new1_lib.log" 2>&1
echo "gpu_check new1 lib --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new1_lib.log" | head -6
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new1 old" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 3:2 2:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
