#!/usr/bin/env bash
# The auto policy against plain NCCL over NVLink at the sizes where a call is host-bound (64 KiB-16 MiB:
# ~15 us of JS + FFI + NCCL host work per call against 3-60 us on the wire), with many repetitions so
# that host noise averages out; twice. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for i in 1 2; do
  timeout 120 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes 64KiB,256KiB,1MiB,4MiB,16MiB \
    --dtypes bf16 --datasets gaussian --modes never,auto --reps 31 --out "$R" --tag nvlink_small_$i > "$R/nvlink_small_$i.log" 2>&1
  echo "== run $i rc=$?"; grep -h -A10 'speedup vs plain' "$R/nvlink_small_$i.log" | grep MiB\\\|KiB | cut -c1-90
  pack
done
