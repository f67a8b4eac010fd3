#!/usr/bin/env bash
# The closing GPU run of a session on nvidia-h200-x2: codec bit-exactness (gpu_check --quick: GPU bytes ==
# CPU bytes for every dtype, layout and block size incl. the P2P's 2^12 blocks), then
# scripts/gpu_p2p_round.sh (P2P A/B with plain NCCL and auto, P2P and collectives tests, collectives
# bench, NVLink auto). Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
timeout 90 .carry-run/gpu/gpu_check --quick > "$R/gpu_check.log" 2>&1
echo "gpu_check rc=$?"; grep -E 'PASSED|FAILED' "$R/gpu_check.log" | tail -2
pack
bash scripts/gpu_p2p_round.sh
