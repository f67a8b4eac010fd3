#!/usr/bin/env bash
# 2x H200: how reliably "auto" decides (one calibration per bench process): 5 processes timing plain,
# always and auto at 32-64 MiB with NCCL_P2P_DISABLE=1; then the P2P GPU tests, one full P2P round
# (16 MiB-1 GiB, bf16 Gaussian and uniform) and the auto policy over NVLink with more repetitions.
# Bundle: scripts/pack_device.sh (weights not needed).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
L="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16"
for i in 1 2 3 4 5; do
  NCCL_P2P_DISABLE=1 timeout 60 $L --datasets gaussian --modes never,always,auto --sizes 32MiB,48MiB,64MiB \
    --reps 5 --out "$R" --tag auto_$i > "$R/p2p_auto_$i.log" 2>&1
  echo "== auto $i rc=$? $(grep -h calibration $R/p2p_auto_$i.log | cut -c10-) | $(grep -h -A6 'speedup vs plain' $R/p2p_auto_$i.log | grep -E 'MiB' | cut -c24-80 | tr '\n' ' ')"
done
pack
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED' | tail -3
NCCL_P2P_DISABLE=1 timeout 150 $L --datasets gaussian,uniform --modes never,always,auto \
  --sizes 16MiB,64MiB,256MiB,1GiB --reps 9 --out "$R" --tag closing > "$R/p2p_closing.log" 2>&1
echo "closing rc=$?"; grep -h -A12 'speedup vs plain' "$R/p2p_closing.log" | cut -c1-100
pack
timeout 120 $L --sizes 64KiB,1MiB,16MiB,64MiB,256MiB --datasets gaussian --modes never,auto --reps 15 --out "$R" \
  --tag nvlink > "$R/p2p_nvlink.log" 2>&1
echo "nvlink rc=$?"; grep -h -A10 'speedup vs plain' "$R/p2p_nvlink.log" | cut -c1-90
pack
