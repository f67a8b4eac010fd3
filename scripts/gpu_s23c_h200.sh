#!/usr/bin/env bash
# Session 23, call 3: the deferred plans and the payload copy, against this build (main) in the same call.
#   new1/ exp/s23-pend2: plans in a shared-memory ring, copied there from registers when a block is deferred
#   new2/ exp/s23-pend3: compress_block writes the plan straight into the ring (one lane)
#   new3/ exp/s23-copy8: new2 + copy_section with 8 chunks a lane in flight (was 4)
#   new4/ exp/s23-pf-own: new2 + L2 prefetches chosen by UZIP_GPU_ENC_PREFETCH bits: 1 the block just taken
#         (the histogram pass then waits on one DRAM latency, the rest of its loads find the L2), 2 a
#         deferred block's stage section before its look-back, 4 the block again before its coding pass
# Then gpu_check --quick, memcheck and racecheck of new3, memcheck of a prefetching call. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "gpu new1 new2 new3 new4" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  for k in 1 2 3 4 7; do
    gpu_bench_run "r${r}_d1_f2_pf$k" new4 UZIP_GPU_ENC_PREFETCH=$k -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" \
      --sms 0 --reps 10
  done
  pack
  echo "(${SECONDS}s)"
done
for d in 1:0 2:2 3:2 4:2; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "gpu new2 new3" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_pf3" new4 UZIP_GPU_ENC_PREFETCH=3 -- --dtypes ${d%:*} --flags ${d#*:} \
    --sizes-kib "262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs r1_d1_f2_s32 "gpu new2 new3" --dtypes 1 --flags 2 --sizes-kib "262144" --sms 32 --reps 10
pack
echo "(${SECONDS}s)"
timeout 240 .carry-run/new3/gpu_check --quick > "$R/check_new3.log" 2>&1
echo "gpu_check --quick new3 rc=$?"; grep -E "^FAIL|PASSED|FAILED|lane streams" "$R/check_new3.log" | tail -3
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new3/gpu_check --tiny > "$R/san_${tool}_new3.log" 2>&1
  echo "$tool new3 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/san_${tool}_new3.log"
done
UZIP_GPU_ENC_PREFETCH=7 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new4/gpu_bench /tmp/y.json \
  --dtypes 1 --flags 2 --sizes-kib 16384 --sms 0 --reps 1 > "$R/san_memcheck_pf7_bench.log" 2>&1
echo "memcheck pf7 bench rc=$?"; grep -E "ERROR SUMMARY" "$R/san_memcheck_pf7_bench.log"
pack
echo "(${SECONDS}s)"
