#!/usr/bin/env bash
# P2P plan knobs (nccl/p2p.h P2pPlanKnobs) against the default plan, on 2 GPUs with NCCL_P2P_DISABLE=1,
# bf16 Gaussian, plain NCCL in every run, the settings alternating. SETTINGS: env assignments, one per
# setting ("-" is the default plan), e.g. UZIP_P2P_EDGES=8388608,8388608 (small first and last chunks:
# a shorter fill and drain for two more steps) or UZIP_P2P_LOG2=12,13 (2^13 blocks for large chunks).
# ROUNDS, SIZES; COLL_SIZES adds the collectives bench (their exchanges use the same plan).
# Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for round in $(seq 1 "${ROUNDS:-2}"); do
  for st in ${SETTINGS:-- UZIP_P2P_EDGES=8388608,8388608 UZIP_P2P_EDGES=4194304,4194304 UZIP_P2P_LOG2=12,13}; do
    X=; [ "$st" != - ] && X=$st
    tag=r${round}_$(echo "${st#UZIP_P2P_}" | tr ',=' '__' | tr -d -)
    [ "$st" = - ] && tag=r${round}_default
    env NCCL_P2P_DISABLE=1 $X timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
      --dtypes bf16 --datasets gaussian --modes never,always --sizes ${SIZES:-64MiB,256MiB} --reps 9 --out "$R" \
      --tag $tag > "$R/p2p_$tag.log" 2>&1
    echo "== $tag rc=$? $(grep -h -A8 'speedup vs plain' "$R/p2p_$tag.log" | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
    if [ -n "${COLL_SIZES:-}" ]; then
      env NCCL_P2P_DISABLE=1 $X timeout 90 deno run -A --no-check scripts/launch.ts -n 2 \
        bench/collectives.ts --colls allReduce,allGather --sizes $COLL_SIZES --dtype bf16 --modes never,always \
        --out "$R" --tag $tag > "$R/coll_$tag.log" 2>&1
      echo "   coll rc=$? $(grep -E 'always' "$R/coll_$tag.log" | sed 's/^\[rank 0\] //' | cut -c1-26,60-100 | tr '\n' ' ')"
    fi
    pack
  done
done
