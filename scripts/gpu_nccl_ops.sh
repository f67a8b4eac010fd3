#!/usr/bin/env bash
# bench/nccl_ops.ts on 2 GPUs with NCCL_P2P_DISABLE=1: one NCCL operation per step against two, one way
# and both ways, and halved over two communicators. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for bidir in 0 1; do
  NCCL_P2P_DISABLE=1 timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/nccl_ops.ts \
    --bytes 22MiB,8MiB,2MiB --bidir $bidir --comms 2 > "$R/nccl_ops_$bidir.log" 2>&1
  echo "== bidir $bidir rc=$?"; grep "MiB:" "$R/nccl_ops_$bidir.log"
done
pack
