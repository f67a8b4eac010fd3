#!/usr/bin/env bash
# 2x H200 after the SM-gate fix: (1) the collectives GPU test and the P2P GPU test; (2) session 7's
# failing case, the 256 MiB compressed all-reduce with UZIP_P2P_LOG2=12,13, three times, plus 1 GiB;
# (3) the default plan against UZIP_P2P_LOG2=12,13, P2P and collectives, 64 and 256 MiB, two rounds
# (scripts/gpu_p2p_edges.sh). NCCL_P2P_DISABLE=1, bf16 Gaussian, plain NCCL in every run.
# Bundle: scripts/pack_device.sh (weights, gpu/ and old/ may be left out). Usage (device):
# bash scripts/gpu_gate_x2.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 90 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "== coll test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL|passed|failed' | tail -4
timeout 120 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "== p2p test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|TimeoutError' | tail -3
pack
for i in 1 2 3; do
  NCCL_P2P_DISABLE=1 UZIP_P2P_LOG2=12,13 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 \
    bench/collectives.ts --colls allReduce --sizes 256MiB$([ $i = 3 ] && echo ,1GiB) --dtype bf16 \
    --modes never,always --out "$R" --tag log2_13_try$i > "$R/fault_try$i.log" 2>&1
  echo "== 12,13 all-reduce try $i rc=$?"; grep -E 'MiB|GiB|rror' "$R/fault_try$i.log" | sed 's/^\[rank 0\] //' | cut -c1-110 | tail -4
done
pack
SETTINGS="- UZIP_P2P_LOG2=12,13" ROUNDS=2 SIZES=64MiB,256MiB COLL_SIZES=64MiB,256MiB bash scripts/gpu_p2p_edges.sh
