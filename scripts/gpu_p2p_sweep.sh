#!/usr/bin/env bash
# P2P tuning on 2 GPUs (NCCL_P2P_DISABLE=1, bf16): chunk size and codec SM budget against plain NCCL in the
# same runs, then the P2P GPU tests and an NVLink run with the auto policy. Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for cfg in "32MiB 116" "64MiB 116" "128MiB 116" "32MiB 100" "64MiB 124"; do
  set -- $cfg
  cb=$(( ${1%MiB} << 20 ))
  echo "== chunk $1 codecSms $2"
  NCCL_P2P_DISABLE=1 UZIP_P2P_CHUNK_BYTES=$cb UZIP_P2P_CODEC_SMS=$2 timeout 40 deno run -A --no-check scripts/launch.ts -n 2 \
    bench/p2p.ts --sizes 64MiB,256MiB,1GiB --dtypes bf16 --datasets gaussian --modes never,always --reps 7 \
    --out "$R" --tag "sweep_${1}_$2" > "$R/sweep_${1}_$2.log" 2>&1
  grep -h -A6 'speedup vs plain' "$R/sweep_${1}_$2.log" | grep -E 'MiB|GiB' | cut -c1-80
  pack
done
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED' | tail -3
timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes 64KiB,1MiB,16MiB,64MiB,256MiB,1GiB \
  --dtypes bf16 --datasets gaussian --out "$R" --tag nvlink > "$R/p2p_nvlink.log" 2>&1
echo "nvlink rc=$?"; grep -h -A10 'speedup vs plain' "$R/p2p_nvlink.log" | cut -c1-90
pack
