#!/usr/bin/env bash
# How many NCCL communicators (UZIP_LANES = 2, 3, 4; nccl/comm.cc) the compressed collectives' exchanges
# should spread over, on 2 GPUs with NCCL_P2P_DISABLE=1: the collectives bench (plain NCCL in the same
# run) per lane count, then the collectives and P2P GPU tests with the most lanes (bit-exactness, the
# killed peer), then a timeline of the 64 MiB all-reduce at the default. LANES picks the counts.
# Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
for L in ${LANES:-2 3 4 2}; do
  NCCL_P2P_DISABLE=1 UZIP_LANES=$L timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/collectives.ts \
    --colls allReduce,allGather --sizes ${COLL_SIZES:-64MiB,256MiB} --dtype bf16 --modes never,always \
    --out "$R" --tag lanes_$L > "$R/coll_lanes_$L.log" 2>&1
  echo "== lanes $L rc=$?"; grep -E 'MiB' "$R/coll_lanes_$L.log" | grep -v trace | sed 's/^\[rank 0\] //' | cut -c1-100
  pack
done
MAXL=${MAXL:-4}
UZIP_LANES=$MAXL timeout 90 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "coll test (lanes $MAXL) rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL |NOTE |rror|passed|failed' | head -8
UZIP_P2P_LANES=2 UZIP_LANES=$MAXL timeout 120 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "p2p test (P2P on $MAXL lanes) rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED|rror' | tail -4
pack
if [ -n "${TRACE_LANES:-}" ]; then
  NCCL_P2P_DISABLE=1 UZIP_LANES=$TRACE_LANES UZIP_P2P_TRACE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 \
    bench/collectives.ts --colls allReduce --sizes 64MiB --dtype bf16 --modes never,always --calibrate 0 \
    --out /tmp/o > "$R/trace_allReduce_64MiB.log" 2>&1
  echo "== trace rc=$?"
  pack
fi
