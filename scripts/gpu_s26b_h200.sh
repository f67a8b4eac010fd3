#!/usr/bin/env bash
# Session 26, call 3: the compact decoder's ring with three quarters landed and one in flight (new1 =
# exp/s26-ring8), so that its sub-groups are 8 steps: two ring checks per 16 steps instead of four (compact
# bf16 loop 479 -> 420 SASS). old = main (44d37b7's codec). The risk is the shorter prefetch (one quarter,
# ~12 steps of fp16 or fp8 words): hence fp16/fp8 in the A/B. gpu_check --quick of new1 (library choices and
# the compact decoder forced), memcheck of gpu_check --tiny with it forced, then the A/B; then main's bf16
# split state at 1 and 16 MiB (issue #3's small-call bars). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for run in "new1 lib" "new1 v4"; do
  set -- $run
  envs=(); [ "$2" = v4 ] && envs=(UZIP_GPU_DEC_VARIANT=4)
  env "${envs[@]}" timeout 100 .carry-run/$1/gpu_check --quick > "$R/check_$1_$2.log" 2>&1
  echo "gpu_check $1 $2 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_$1_$2.log" | head -6
  pack; echo "(${SECONDS}s)"
done
UZIP_GPU_DEC_VARIANT=4 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new1/gpu_check --tiny > "$R/san_memcheck_new1_v4.log" 2>&1
echo "compute-sanitizer memcheck new1 v4 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new1_v4.log" | head -3
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new1 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs small_d1_f2 "old" --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 20
pack; echo "(${SECONDS}s)"
