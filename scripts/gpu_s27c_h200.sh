#!/usr/bin/env bash
# Session 27, call 5: blocks by warp index for decode calls of one round only (exp/s27-static at 6b9e612;
# call 4's every-first-round form lost 2-3% over many rounds). new2 = that build, old = main (22da8c0's
# codec). gpu_check --quick of new2 (library choices, compact forced), memcheck of --tiny, then the A/B:
# one-round sizes (1, 4, 16, 64 MiB; 64 MiB is 2048 blocks of 2^14 on 3168 warps), twice, and many-round
# sizes, which must be unchanged; other dtypes at 16 MiB; 16 SMs (tickets). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for run in "lib" "v4"; do
  envs=(); [ "$run" = v4 ] && envs=(UZIP_GPU_DEC_VARIANT=4)
  env "${envs[@]}" timeout 100 .carry-run/new2/gpu_check --quick > "$R/check_new2_$run.log" 2>&1
  echo "gpu_check new2 $run --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED|rare-symbol" "$R/check_new2_$run.log" | head -6
  pack; echo "(${SECONDS}s)"
done
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new2/gpu_check --tiny > "$R/san_memcheck_new2.log" 2>&1
echo "compute-sanitizer memcheck new2 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new2.log" | head -3
pack; echo "(${SECONDS}s)"
gpu_bench_dirs small_d1_f2 "old new2 old new2" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 65536" --sms 0 --reps 20
gpu_bench_dirs r1_d1_f2 "old new2 new2 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new2" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "1024 16384 262144" --sms 0 --reps 10
done
gpu_bench_dirs sms16_d1_f2 "old new2" --dtypes 1 --flags 2 --sizes-kib "16384 262144" --sms 16 --reps 10
pack; echo "(${SECONDS}s)"
