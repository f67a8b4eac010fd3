#!/usr/bin/env bash
# Session 44: why a small block's time stretches more under load than a large one's (5-9 of
# bench/results/h100-2026-12-06-session44). The stage clocks (.carry-run/prof: scripts/gpu_prof_build.sh's
# -DUZIP_STAGE_CLOCKS build and gpu_stages, xz) for bf16 split lean 2^12 against plain 2^13 at 1, 4 and 16 MiB,
# on the whole chip and under 16 and 64 SMs (UZIP_STAGES_SMS). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
[ -x .carry-run/prof/gpu_stages ] || { xz -dc .carry-run/prof/gpu_stages.xz > .carry-run/prof/gpu_stages && chmod +x .carry-run/prof/gpu_stages; }
for sms in 0 16 64; do
  UZIP_STAGES_SMS=$sms UZIP_STAGES_FLAGS=0x12 UZIP_STAGES_LOG2=12 .carry-run/prof/gpu_stages 1 1024 4096 16384 > "$R/stages_lean12_sms$sms.txt" 2>&1
  UZIP_STAGES_SMS=$sms UZIP_STAGES_FLAGS=2 UZIP_STAGES_LOG2=13 .carry-run/prof/gpu_stages 1 1024 4096 16384 > "$R/stages_plain13_sms$sms.txt" 2>&1
  pack
done
for f in "$R"/stages_*.txt; do echo "## $(basename "$f")"; grep -E "^==|enc (hist|normalize|build|ANS|look|payload|ticket|sum)" "$f"; done
echo "(${SECONDS}s)"
