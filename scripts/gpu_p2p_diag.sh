#!/usr/bin/env bash
# Where a compressed P2P transfer's time goes (2 GPUs, NCCL_P2P_DISABLE=1, bf16): the bench with the
# pipeline on a worker thread (default) and on the JS thread (--blocking 1), then UZIP_P2P_TRACE=2
# timelines (GPU spans + host stamps, no synchronization) of both. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
run() {  # name, extra env..., -- bench args...
  local name=$1; shift
  env NCCL_P2P_DISABLE=1 "$@" > "$R/$name.log" 2>&1
  echo "== $name rc=$?"; grep -h -A6 'speedup vs plain' "$R/$name.log" | grep -E 'MiB|GiB' | cut -c1-80
  pack
}
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always"
run async timeout 60 $B --sizes 64MiB,256MiB,1GiB --reps 7 --out "$R" --tag async
run blocking timeout 60 $B --sizes 64MiB,256MiB,1GiB --reps 7 --out "$R" --tag blocking --blocking 1
run trace2_async UZIP_P2P_TRACE=2 timeout 60 $B --sizes 256MiB --reps 3 --out "$R" --tag trace_async
run trace2_blocking UZIP_P2P_TRACE=2 timeout 60 $B --sizes 256MiB --reps 3 --out "$R" --tag trace_blocking --blocking 1
