#!/usr/bin/env bash
# Step events with timing vs without (2 GPUs, NCCL_P2P_DISABLE=1, bf16): untraced bench, then
# UZIP_P2P_NET_TIMING=1, then UZIP_P2P_STEP_MARK=1, twice each (nccl/p2p.cc).
set -u
source scripts/device_env.sh
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always --sizes ${SIZES:-64MiB,256MiB,1GiB} --reps 7 --out $R"
i=0
for v in none net mark none net mark; do
  i=$((i + 1))
  case $v in none) X=;; net) X=UZIP_P2P_NET_TIMING=1;; mark) X=UZIP_P2P_STEP_MARK=1;; esac
  env NCCL_P2P_DISABLE=1 $X timeout 80 $B --tag v_$v > "$R/v_$v.$i.log" 2>&1
  echo "== $v rc=$? $(grep -h -A8 'speedup vs plain' $R/v_$v.$i.log | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
done
pack
