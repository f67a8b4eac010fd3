#!/usr/bin/env bash
# Compressed transfers over two NCCL communicators (UZIP_P2P_LANES=2, nccl/p2p.cc) on 2 GPUs with
# NCCL_P2P_DISABLE=1: P2P and collectives GPU tests (bit-exactness), the P2P bench (plain NCCL over one
# communicator as users run it, and "plain2", halved over two: the fair baseline for the lanes), the
# collectives bench, then bench/nccl_ops.ts for reference. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
export UZIP_P2P_LANES=2
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED|rror' | tail -4
pack
NCCL_P2P_DISABLE=1 timeout 100 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 \
  --datasets gaussian --modes never,plain2,always,auto --sizes 16MiB,64MiB,256MiB,1GiB --reps 9 --out "$R" --tag lanes2 \
  > "$R/p2p_lanes2.log" 2>&1
echo "p2p rc=$?"; grep -h -A8 'speedup vs plain' "$R/p2p_lanes2.log" | cut -c1-90; grep -i "error" "$R/p2p_lanes2.log" | head -3
pack
timeout 60 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "coll test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL |NOTE |rror' | head -8
NCCL_P2P_DISABLE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/collectives.ts \
  --colls allReduce,allGather --sizes 64MiB,256MiB --dtype bf16 --modes never,always --out "$R" \
  --tag lanes2 > "$R/coll_bench.log" 2>&1
echo "coll bench rc=$?"; grep -E 'MiB' "$R/coll_bench.log" | sed 's/^\[rank 0\] //' | cut -c1-100 | tail -8
pack
unset UZIP_P2P_LANES
NCCL_P2P_DISABLE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/nccl_ops.ts \
  --bytes 22MiB --comms 2 > "$R/nccl_ops.log" 2>&1
NCCL_P2P_DISABLE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/nccl_ops.ts \
  --bytes 22MiB --comms 2 --bidir 1 >> "$R/nccl_ops.log" 2>&1
echo "nccl_ops rc=$?"; grep "MiB:" "$R/nccl_ops.log"
pack
