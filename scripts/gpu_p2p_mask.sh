#!/usr/bin/env bash
# Which trace event changes a compressed P2P transfer's time (2 GPUs, NCCL_P2P_DISABLE=1, bf16, 256 MiB):
# the bench untraced and with UZIP_P2P_TRACE=2 and each UZIP_P2P_TRACE_MASK (nccl/p2p_trace.h).
set -u
source scripts/device_env.sh
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always --sizes ${SIZES:-256MiB} --reps 7 --out $R"
for m in none 0 3 4 8 12 48 63 none; do
  if [ $m = none ]; then env NCCL_P2P_DISABLE=1 timeout 60 $B --tag m_$m > "$R/m_$m.log" 2>&1
  else env NCCL_P2P_DISABLE=1 UZIP_P2P_TRACE=2 UZIP_P2P_TRACE_MASK=$m timeout 60 $B --tag m_$m > "$R/m_$m.log" 2>&1; fi
  echo "== mask $m rc=$? $(grep -h -A6 'speedup vs plain' "$R/m_$m.log" | grep -E 'MiB|GiB' | cut -c10-80 | tr '\n' ' ')"
done
pack
