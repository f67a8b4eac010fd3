#!/usr/bin/env bash
# One H200: blocks of several ANS segments (2^15, 2^16) against the baseline build in .carry-run/old, with
# 2^14 as the control, bf16 and fp32, 256 MiB and 1 GiB (scripts/gpu_block_sizes.sh for both builds),
# after a full gpu_check of this build; then memcheck --tiny. Usage (device): bash scripts/gpu_multiseg_ab.sh
set -u
source scripts/device_env.sh
timeout 120 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|failures' "$R/check.log" | tail -2
BUILDS="gpu old" FLAGS=0 SIZES=262144,1048576 bash scripts/gpu_block_sizes.sh
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
echo "== memcheck rc=$?"; tail -1 "$R/memcheck.log"
pack
