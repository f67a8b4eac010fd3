#!/usr/bin/env bash
# Session 27, call 6: the encoder's first tickets taken by CTA (exp/s27-encfirst: thread 0 takes its CTA's
# four in one atomic; a call of one round takes no other). new3 = that build, old = main (31c0b2d's codec).
# gpu_check --quick of new3 (library choices; lone warps forced, UZIP_GPU_ENC_VARIANT=0), memcheck and
# racecheck of --tiny (a shared word and a barrier are new), then the A/B: one-round sizes (16 and 64 MiB
# bf16: 1024 and 2048 blocks on 2112 warps) twice, many rounds twice, other dtypes, 16 SMs (the old path).
# Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for run in "lib" "v0"; do
  envs=(); [ "$run" = v0 ] && envs=(UZIP_GPU_ENC_VARIANT=0)
  env "${envs[@]}" timeout 100 .carry-run/new3/gpu_check --quick > "$R/check_new3_$run.log" 2>&1
  echo "gpu_check new3 $run --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED|rare-symbol" "$R/check_new3_$run.log" | head -6
  pack; echo "(${SECONDS}s)"
done
for tool in memcheck racecheck; do
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new3/gpu_check --tiny > "$R/san_${tool}_new3.log" 2>&1
  echo "compute-sanitizer $tool new3 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_${tool}_new3.log" | head -3
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs small_d1_f2 "old new3 new3 old" --dtypes 1 --flags 2 --sizes-kib "16384 65536" --sms 0 --reps 20
gpu_bench_dirs r1_d1_f2 "old new3 new3 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new3" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs sms16_d1_f2 "old new3" --dtypes 1 --flags 2 --sizes-kib "16384 262144" --sms 16 --reps 10
pack; echo "(${SECONDS}s)"
