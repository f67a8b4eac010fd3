#!/usr/bin/env bash
# Session 27, call 7: the decoder's first tickets taken by CTA over more rounds (exp/s27-decbatch at 7bf7bb4: thread 0
# takes its CTA's four in one atomic, as the encoder's merged form does; one-round calls keep blocks by
# warp index). new4 = that build, old = main (811a281's codec, built as ab6c1dd). gpu_check --quick of new4
# (library choices, compact forced), memcheck and racecheck of --tiny (a ticket left in each warp's area and a barrier are
# new), then the A/B: many-round sizes twice, one-round sizes once, other dtypes, 16 SMs. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for run in "lib" "v4"; do
  envs=(); [ "$run" = v4 ] && envs=(UZIP_GPU_DEC_VARIANT=4)
  env "${envs[@]}" timeout 100 .carry-run/new4/gpu_check --quick > "$R/check_new4_$run.log" 2>&1
  echo "gpu_check new4 $run --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED|rare-symbol" "$R/check_new4_$run.log" | head -6
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs r1_d1_f2 "old new4 new4 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs small_d1_f2 "old new4" --dtypes 1 --flags 2 --sizes-kib "16384 65536" --sms 0 --reps 20
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new4" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs sms16_d1_f2 "old new4" --dtypes 1 --flags 2 --sizes-kib "262144" --sms 16 --reps 10
pack; echo "(${SECONDS}s)"
for tool in memcheck racecheck; do
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new4/gpu_check --tiny > "$R/san_${tool}_new4.log" 2>&1
  echo "compute-sanitizer $tool new4 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_${tool}_new4.log" | head -3
  pack; echo "(${SECONDS}s)"
done
