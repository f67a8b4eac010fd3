#!/usr/bin/env bash
# Session 26, call 8: gpu_check's new rare-symbol burst cases (compact decoder sub-groups that cross two
# ring quarters at once, ring_advance's refill loop) on main's build (gpu, with the new gpu_check):
# --quick, then memcheck of --tiny; then the same gpu_check against a mutant library whose ring_advance
# refills one quarter a check (mut/: the pre-loop form, docs/experiments/mutant-ring-advance-one-quarter.diff
# applied to a worktree and built), which the burst cases must fail. gpu/ = main's gpu_check and library.
# Carry [".carry-run"]. Not run in session 26 (its device time ran out).
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
