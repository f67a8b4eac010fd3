#!/usr/bin/env bash
# Session 23, call 4: main with the deferred plans in shared memory (exp/s23-pend3 merged) against main
# before it (old/ = 42d1444's build) in the same call: bf16 split two rounds, the other dtypes and layouts,
# SM budgets 16 and 32; then gpu_check --quick, memcheck and racecheck of this build. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 1:0 2:2 3:2 4:2; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old gpu" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
done
for s in 16 32; do
  gpu_bench_dirs "r1_d1_f2_s$s" "old gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms $s --reps 10
done
pack
echo "(${SECONDS}s)"
check_run check_quick 240 -- --quick
san_run 200 -- --tiny
echo "(${SECONDS}s)"
