#!/usr/bin/env bash
# Which chunks the P2P plan codes in small blocks (UZIP_P2P_SMALL_CHUNK_BYTES: chunks under it use
# 2^12-element blocks) against lanes (UZIP_LANES), on 2 GPUs with NCCL_P2P_DISABLE=1, bf16: the
# collectives bench (all-reduce, all-gather) and the P2P bench (Gaussian), plain NCCL in every run, the
# settings in alternating order (THRESHOLDS, LANES, ROUNDS; COLL_SIZES, P2P_SIZES).
# Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for th in ${THRESHOLDS:-16777216 16777217}; do
    for ln in ${LANES:-2 4}; do
      tag=r${round}_small${th}_lanes$ln
      NCCL_P2P_DISABLE=1 UZIP_P2P_SMALL_CHUNK_BYTES=$th UZIP_LANES=$ln timeout 90 deno run -A --no-check \
        scripts/launch.ts -n 2 bench/collectives.ts --colls allReduce,allGather --sizes ${COLL_SIZES:-64MiB,256MiB} \
        --dtype bf16 --modes never,always --calibrate 0 --out "$R" --tag $tag > "$R/coll_$tag.log" 2>&1
      echo "== coll $tag rc=$?"; grep -E 'always' "$R/coll_$tag.log" | sed 's/^\[rank 0\] //' | cut -c1-100
      pack
    done
    if [ -n "${P2P_SIZES-32MiB,64MiB}" ]; then
      tag=r${round}_small$th
      NCCL_P2P_DISABLE=1 UZIP_P2P_SMALL_CHUNK_BYTES=$th timeout 90 deno run -A --no-check scripts/launch.ts -n 2 \
        bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always --sizes ${P2P_SIZES-32MiB,64MiB} --reps 9 \
        --out "$R" --tag $tag > "$R/p2p_$tag.log" 2>&1
      echo "== p2p $tag rc=$? $(grep -h -A6 'speedup vs plain' "$R/p2p_$tag.log" | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
      pack
    fi
  done
done
