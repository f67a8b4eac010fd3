#!/usr/bin/env bash
# Edge chunks of the P2P plan (UZIP_P2P_EDGES "first,last" bytes; nccl/p2p.h P2pPlanKnobs): a small first
# chunk shortens the fill (the first compress) and a small last chunk the drain (the last decode), for
# two more steps. On 2 GPUs with NCCL_P2P_DISABLE=1, bf16 Gaussian, plain NCCL in every run, the settings
# alternating (EDGES, ROUNDS; SIZES; COLL_SIZES adds the collectives bench). Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for round in $(seq 1 "${ROUNDS:-2}"); do
  for ed in ${EDGES:-0,0 8388608,8388608 4194304,4194304 8388608,0}; do
    tag=r${round}_edges_$(echo "$ed" | tr ',' '_')
    NCCL_P2P_DISABLE=1 UZIP_P2P_EDGES=$ed timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
      --dtypes bf16 --datasets gaussian --modes never,always --sizes ${SIZES:-64MiB,256MiB} --reps 9 --out "$R" \
      --tag $tag > "$R/p2p_$tag.log" 2>&1
    echo "== $tag rc=$? $(grep -h -A8 'speedup vs plain' "$R/p2p_$tag.log" | grep -E 'MiB|GiB' | cut -c24-80 | tr '\n' ' ')"
    if [ -n "${COLL_SIZES:-}" ]; then  # the collectives' exchanges use the same plan
      NCCL_P2P_DISABLE=1 UZIP_P2P_EDGES=$ed timeout 90 deno run -A --no-check scripts/launch.ts -n 2 \
        bench/collectives.ts --colls allReduce,allGather --sizes $COLL_SIZES --dtype bf16 --modes never,always \
        --out "$R" --tag $tag > "$R/coll_$tag.log" 2>&1
      echo "   coll rc=$? $(grep -E 'always' "$R/coll_$tag.log" | sed 's/^\[rank 0\] //' | cut -c1-26,60-100 | tr '\n' ' ')"
    fi
    pack
  done
done
