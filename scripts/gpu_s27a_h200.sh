#!/usr/bin/env bash
# Session 27, call 2: gpu_check's rare-symbol burst cases with a run of 2048 (64 steps) instead of 1024
# (call 1, gpu_s26g: main passed, and so did the mutant, so the cases did not test what they were for):
# main's library (gpu/) --quick and memcheck of --tiny, then the mutant (mut/: ring_advance refilling one
# quarter a check, docs/experiments/mutant-ring-advance-one-quarter.diff), which the cases must now fail.
# Then the decoder's last-round loss: bf16 split at sizes from 2 to 5 rounds of the compact decoder's 3168
# warps (2^14 blocks of 32 KiB: 99 MiB a round), and 2^13 blocks at the same sizes. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check_main 100 -- --quick
grep -E "rare-symbol bursts|FAIL burst" "$R/check_main.log" | head -4
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_memcheck_main.log" 2>&1
echo "compute-sanitizer memcheck main rc=$?"; grep -E "ERROR SUMMARY|FAILED|rare-symbol" "$R/san_memcheck_main.log" | head -3
pack; echo "(${SECONDS}s)"
timeout 100 .carry-run/mut/gpu_check --quick > "$R/check_mutant.log" 2>&1
echo "gpu_check mutant --quick rc=$?"; grep -E "rare-symbol bursts|^FAIL|PASSED|FAILED" "$R/check_mutant.log" | head -8
pack; echo "(${SECONDS}s)"
# 2.0, 2.3, 2.59 (256 MiB), 3.0, 3.3, 4.0, 5.0 rounds of 3168 warps at 2^14 (one round = 3168 x 32 KiB).
SIZES="202752 233472 262144 304128 334848 405504 506880"
gpu_bench_run rounds_l14 gpu -- --dtypes 1 --flags 2 --log2 14 --sizes-kib "$SIZES" --sms 0 --reps 10
gpu_bench_run rounds_l13 gpu -- --dtypes 1 --flags 2 --log2 13 --sizes-kib "$SIZES" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
