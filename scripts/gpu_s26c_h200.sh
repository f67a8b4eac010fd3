#!/usr/bin/env bash
# Session 26, call 5: a block's start lines prefetched into the L2 at once (prefetch.global.L2), before the
# dependent reads of its section walk, table and segment header: new1 = exp/s26-headpf (the first 12 lines,
# i.e. table, segment header and the first ~1.2 KB of words, and the block's last line), new2 =
# exp/s26-headpf3 (3 lines and the last). old = main (6a48b41's codec). gpu_check --quick of new1 (library
# choices, compact forced), memcheck of gpu_check --tiny on new1, then the A/B including small calls (1 and
# 16 MiB, where a block's start is a larger share). Carry [".carry-run"].
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
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new1/gpu_check --tiny > "$R/san_memcheck_new1.log" 2>&1
echo "compute-sanitizer memcheck new1 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new1.log" | head -3
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1 new2" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new2 new1 old" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs small_d1_f2 "old new1 new2" --dtypes 1 --flags 2 --sizes-kib "1024" --sms 0 --reps 20
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
