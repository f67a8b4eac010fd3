#!/usr/bin/env bash
# Where the codec's CTAs sit during a compressed P2P transfer (2 GPUs, NCCL_P2P_DISABLE=1, bf16): the
# default SM gating against UZIP_GPU_GATE_LOW=1, UZIP_GPU_GATE_ALWAYS=1, both, and a 64-SM codec
# budget; plain NCCL in every run. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always --sizes 64MiB,256MiB,1GiB --reps 7 --out $R"
i=0
for v in base low always both sms64 base low both; do
  i=$((i + 1))
  case $v in base) X=;; low) X=UZIP_GPU_GATE_LOW=1;; always) X=UZIP_GPU_GATE_ALWAYS=1;;
    both) X="UZIP_GPU_GATE_LOW=1 UZIP_GPU_GATE_ALWAYS=1";; sms64) X=UZIP_P2P_CODEC_SMS=64;; esac
  env NCCL_P2P_DISABLE=1 $X timeout 80 $B --tag ${v}_$i > "$R/p2p_${v}_$i.log" 2>&1
  echo "== $v rc=$? $(grep -h -A8 'speedup vs plain' $R/p2p_${v}_$i.log | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
  pack
done
