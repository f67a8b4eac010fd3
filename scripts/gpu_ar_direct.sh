#!/usr/bin/env bash
# The 2-rank compressed all-reduce as one exchange of the whole buffers ("direct", nccl/coll_schedules.cc
# allReduceDirect2, the default) against the ring (UZIP_COLL_ALLREDUCE2=ring: reduce-scatter exchange,
# reduce, all-gather exchange), on 2 GPUs with NCCL_P2P_DISABLE=1, plain NCCL in every run, alternating
# (ROUNDS, default 2; AR_VARIANTS, default "ring direct direct_end", the last with the reduce after the
# exchange instead of per received chunk, UZIP_COLL_REDUCE_PER_CHUNK=0): bf16 16 / 64 / 256 MiB and fp32 64 / 256 MiB, never / always / auto; then the
# collectives GPU test (direct; bit-exactness against the plain schedule and NCCL); then the all-gather
# with its own-segment copy beside the exchange or before it (UZIP_COLL_COPY_ASIDE; AG_ROUNDS).
# Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
L="deno run -A --no-check scripts/launch.ts -n 2"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for v in ${AR_VARIANTS:-ring direct direct_end}; do
    tag=r${round}_$v
    X="UZIP_COLL_ALLREDUCE2=${v%_end}"; [ "$v" = direct_end ] && X="$X UZIP_COLL_REDUCE_PER_CHUNK=0"
    env NCCL_P2P_DISABLE=1 $X timeout 120 $L bench/collectives.ts --colls allReduce \
      --sizes 16MiB,64MiB,256MiB --dtype bf16 --modes never,always,auto --out "$R" --tag ${tag}_bf16 > "$R/ar_${tag}_bf16.log" 2>&1
    echo "== $tag bf16 rc=$?"; grep -E 'MiB' "$R/ar_${tag}_bf16.log" | grep -v "#" | sed 's/^\[rank 0\] //' | cut -c1-100
    if [ "$round" = 1 ]; then
      env NCCL_P2P_DISABLE=1 $X timeout 120 $L bench/collectives.ts --colls allReduce \
        --sizes 64MiB,256MiB --dtype fp32 --modes never,always,auto --out "$R" --tag ${tag}_fp32 > "$R/ar_${tag}_fp32.log" 2>&1
      echo "== $tag fp32 rc=$?"; grep -E 'MiB' "$R/ar_${tag}_fp32.log" | grep -v "#" | sed 's/^\[rank 0\] //' | cut -c1-100
    fi
    pack
  done
done
timeout 90 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test_direct.log" 2>&1
echo "== coll test (direct) rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test_direct.log" | grep -E 'comparisons|FAIL |passed|failed' | head -6
pack
# The 2-rank all-gather's own-segment copy beside the exchange (default) or before it (UZIP_COLL_COPY_ASIDE=0).
for round in $(seq 1 "${AG_ROUNDS:-2}"); do
  for v in 0 1; do
    tag=r${round}_aside$v
    NCCL_P2P_DISABLE=1 UZIP_COLL_COPY_ASIDE=$v timeout 120 $L bench/collectives.ts --colls allGather \
      --sizes 16MiB,64MiB,256MiB --dtype bf16 --modes never,always --out "$R" --tag $tag > "$R/ag_$tag.log" 2>&1
    echo "== $tag rc=$?"; grep -E 'always' "$R/ag_$tag.log" | sed 's/^\[rank 0\] //' | cut -c1-100
    pack
  done
done
