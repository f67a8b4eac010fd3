#!/usr/bin/env bash
# 2x H200: the P2P chunk plan's block sizes (UZIP_P2P_LOG2 "small,large"; default 12,14) against each
# other with NCCL_P2P_DISABLE=1, bf16 Gaussian 16-256 MiB (scripts/gpu_p2p_round.sh, which then runs the
# P2P GPU tests, the collectives test and bench and the auto policy over NVLink), then
# scripts/gpu_sanitize.sh (gpu_check full, memcheck, racecheck) on GPU 0. Bundle: scripts/pack_device.sh.
set -u
VARIANTS=${PLANS:-"log2:12,14 log2:13,14 log2:13,13 log2:12,14 log2:13,14 log2:13,13"} SIZES=16MiB,64MiB,256MiB \
  bash scripts/gpu_p2p_round.sh
source scripts/device_env.sh
CUDA_VISIBLE_DEVICES=0 timeout 240 bash scripts/gpu_sanitize.sh > "$R/sanitize.log" 2>&1
echo "sanitize rc=$?"; tail -6 "$R/sanitize.log"
pack
