#!/usr/bin/env bash
# 2x H200: the P2P chunk plan's block sizes (UZIP_P2P_LOG2 "small,large"; default 12,14) against each
# other with NCCL_P2P_DISABLE=1, bf16 Gaussian, plain NCCL and auto in every run, alternating; then the
# P2P GPU tests, the collectives test and bench, the auto policy over NVLink, and scripts/gpu_sanitize.sh
# (gpu_check full, memcheck, racecheck) on GPU 0. Bundle: scripts/pack_device.sh (weights not needed).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always,auto --sizes 16MiB,64MiB,256MiB --reps ${REPS:-9} --out $R"
i=0
for v in ${PLANS:-12,14 13,14 13,13 12,14 13,14 13,13}; do
  i=$((i + 1))
  env NCCL_P2P_DISABLE=1 UZIP_P2P_LOG2=$v timeout 100 $B --tag log2_${v/,/_}_$i > "$R/p2p_${v/,/_}_$i.log" 2>&1
  echo "== $v rc=$? $(grep -h -A8 'speedup vs plain' $R/p2p_${v/,/_}_$i.log | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
  pack
done
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED' | tail -3
collectives_round
timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes 64KiB,1MiB,16MiB,64MiB,256MiB \
  --dtypes bf16 --datasets gaussian --modes never,auto --reps 7 --out "$R" --tag nvlink > "$R/p2p_nvlink.log" 2>&1
echo "nvlink rc=$?"; grep -h -A10 'speedup vs plain' "$R/p2p_nvlink.log" | cut -c1-90
pack
CUDA_VISIBLE_DEVICES=0 timeout 240 bash scripts/gpu_sanitize.sh > "$R/sanitize.log" 2>&1
echo "sanitize rc=$?"; tail -6 "$R/sanitize.log"
pack
