#!/usr/bin/env bash
# The P2P pipeline's timeline on 2 GPUs (NCCL_P2P_DISABLE=1, bf16): UZIP_P2P_TRACE=1 spans of one
# compressed 256 MiB and 64 MiB transfer, plus the bench's plain/compressed times around them.
set -u
source scripts/device_env.sh
for size in 256MiB 64MiB; do
  NCCL_P2P_DISABLE=1 UZIP_P2P_TRACE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
    --sizes $size --dtypes bf16 --datasets gaussian --modes never,always --reps 2 --out /tmp/o \
    > "$R/trace_$size.log" 2>&1
  echo "== $size rc=$?"; grep -E 'x plain|GB/s|gaussian' "$R/trace_$size.log" | grep -v trace | tail -3 | cut -c1-100
  pack
done
