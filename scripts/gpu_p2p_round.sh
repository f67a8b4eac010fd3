#!/usr/bin/env bash
# The P2P chunk plan (nccl/p2p_plan.cc p2pChunkPlan) against 2^14 blocks only (big: UZIP_P2P_SMALL_BLOCKS=0),
# 2^12 blocks for small chunks only (mid: =1), other block sizes (log2:S,L: UZIP_P2P_LOG2=S,L), or step
# events without timing (untimed), alternating (SIZES overrides the message sizes), on 2 GPUs with NCCL_P2P_DISABLE=1, bf16,
# plain NCCL and auto in every run; then the P2P GPU tests, the collectives test and bench, and the auto
# policy over NVLink. (Until 6ef219e "flat" meant UZIP_P2P_RAMP=0 against a ramped plan.)
# Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
B="deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always,auto --sizes ${SIZES:-16MiB,64MiB,256MiB,1GiB} --reps ${REPS:-9} --out $R"
i=0
for v in ${VARIANTS:-base big base big}; do
  i=$((i + 1))
  case $v in base) X=;; big) X=UZIP_P2P_SMALL_BLOCKS=0;; mid) X=UZIP_P2P_SMALL_BLOCKS=1;;
    untimed) X=UZIP_P2P_NET_TIMING=0;; log2:*) X=UZIP_P2P_LOG2=${v#log2:};; esac
  t=$(echo "$v" | tr ':,' '__')
  env NCCL_P2P_DISABLE=1 $X timeout 100 $B --tag ${t}_$i > "$R/p2p_${t}_$i.log" 2>&1
  echo "== $v rc=$? $(grep -h -A8 'speedup vs plain' $R/p2p_${t}_$i.log | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
  pack
done
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED' | tail -3
collectives_round
timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes 64KiB,1MiB,16MiB,64MiB,256MiB,1GiB \
  --dtypes bf16 --datasets gaussian --modes never,auto --reps 7 --out "$R" --tag nvlink > "$R/p2p_nvlink.log" 2>&1
echo "nvlink rc=$?"; grep -h -A10 'speedup vs plain' "$R/p2p_nvlink.log" | cut -c1-90
pack
