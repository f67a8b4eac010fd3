#!/usr/bin/env bash
# The P2P pipeline's timeline on 2 GPUs (NCCL_P2P_DISABLE=1, bf16): UZIP_P2P_TRACE spans of compressed
# 256 MiB and 64 MiB transfers, and of the compressed all-gather and all-reduce exchanges (256 MiB), with
# the benches' plain/compressed times around them. TRACE=2 (default) does not synchronize and adds host
# stamps; TRACE=1 synchronizes each batch to print it. P2P_SIZES / COLL_SIZES (default 256MiB 64MiB /
# 256MiB) pick the message sizes. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
T=${TRACE:-2}
for size in ${P2P_SIZES-256MiB 64MiB}; do
  NCCL_P2P_DISABLE=1 UZIP_P2P_TRACE=$T timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
    --sizes $size --dtypes bf16 --datasets gaussian --modes never,always --reps 2 --out /tmp/o \
    > "$R/trace_$size.log" 2>&1
  echo "== $size rc=$?"; grep -E 'always' "$R/trace_$size.log" | grep -v trace | tail -1 | cut -c1-100
  pack
done
for size in ${COLL_SIZES:-256MiB}; do
  for coll in allGather allReduce; do
    NCCL_P2P_DISABLE=1 UZIP_P2P_TRACE=$T timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/collectives.ts \
      --colls $coll --sizes $size --dtype bf16 --modes never,always --calibrate 0 --out /tmp/o > "$R/trace_${coll}_$size.log" 2>&1
    echo "== $coll $size rc=$?"; grep -E 'MiB' "$R/trace_${coll}_$size.log" | grep -v trace | tail -2 | cut -c1-100
    pack
  done
done
