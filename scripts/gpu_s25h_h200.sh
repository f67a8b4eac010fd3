#!/usr/bin/env bash
# Session 25, call 8: decode table entries laid out symbol | (slot - cum) << 8 | f << 20 (new7 =
# exp/s25-entry): the symbol store takes the entry's low byte, and the next state is f * ((x >> 11) - 4096)
# + (e >> 8), one instruction a step less (530 -> 514 SASS per 16 steps of the compact bf16 loop). Every
# decoder but the lane-stream one builds and reads these entries, so gpu_check --quick first (all kernels),
# then memcheck of gpu_check --tiny with the compact decoder forced, then the A/B against main (old).
# (racecheck not run: the change moves no shared-memory access.) Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 100 .carry-run/new7/gpu_check --quick > "$R/check_new7.log" 2>&1
echo "gpu_check new7 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new7.log" | head -6
pack
UZIP_GPU_DEC_VARIANT=4 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new7/gpu_check --tiny > "$R/san_memcheck_new7_v4.log" 2>&1
echo "compute-sanitizer memcheck new7 v4 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new7_v4.log" | head -3
pack
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new7" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new7 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new7" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
