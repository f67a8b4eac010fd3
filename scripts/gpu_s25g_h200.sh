#!/usr/bin/env bash
# Session 25, call 7: the decoder's next block a block ahead (new6 = exp/s25-pf): an ungated warp takes its
# next ticket when it starts a block and, 96 steps before that block's end, prefetches into the L2 the next
# block's first 1.5 KB of payload (section header, table, states, first words) and 512 B of its remainder
# plane, so that the dependent reads at a block's start hit the L2 (ncu, call 2: ~6-7% of the decoder's
# stall samples wait on them). A/B against main (old) in one call, bf16 split in both orders, the other types
# once; then gpu_check --quick of new6 and memcheck of gpu_check --tiny with the compact decoder forced.
# (racecheck not run: the change touches no shared memory.) Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="16384 262144 1048576 4194304"
gpu_bench_dirs r1_d1_f2 "old new6" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new6 old" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new6" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
timeout 120 .carry-run/new6/gpu_check --quick > "$R/check_new6.log" 2>&1
echo "gpu_check new6 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new6.log" | head -6
pack
echo "(${SECONDS}s)"
UZIP_GPU_DEC_VARIANT=4 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new6/gpu_check --tiny > "$R/san_memcheck_new6_v4.log" 2>&1
echo "compute-sanitizer memcheck new6 v4 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new6_v4.log" | head -3
pack
echo "(${SECONDS}s)"
