#!/usr/bin/env bash
# Session 27, call 4: the decoder's first round by warp index (exp/s27-static: a warp's first block is its
# index in the grid, tickets count from the grid's warps; none under an SM budget). new1 = that build, old =
# main (22da8c0's codec). gpu_check --quick of new1 (library choices, compact forced), memcheck of --tiny,
# then the A/B, small calls included (1 and 16 MiB: one round, no ticket at all), and an SM budget (16
# SMs: the ticket path as before). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for run in "lib" "v4"; do
  envs=(); [ "$run" = v4 ] && envs=(UZIP_GPU_DEC_VARIANT=4)
  env "${envs[@]}" timeout 100 .carry-run/new1/gpu_check --quick > "$R/check_new1_$run.log" 2>&1
  echo "gpu_check new1 $run --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED|rare-symbol" "$R/check_new1_$run.log" | head -6
  pack; echo "(${SECONDS}s)"
done
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new1/gpu_check --tiny > "$R/san_memcheck_new1.log" 2>&1
echo "compute-sanitizer memcheck new1 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new1.log" | head -3
pack; echo "(${SECONDS}s)"
gpu_bench_dirs small_d1_f2 "old new1 old new1" --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 20
gpu_bench_dirs r1_d1_f2 "old new1" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new1 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs sms16_d1_f2 "old new1" --dtypes 1 --flags 2 --sizes-kib "16384 262144" --sms 16 --reps 10
pack; echo "(${SECONDS}s)"
