#!/usr/bin/env bash
# 2x H200 after the SM-gate fix and the fused decode-reduce. NCCL_P2P_DISABLE=1, bf16 Gaussian, plain NCCL
# in every bench run. STAGES (default "tests fault fuse log2"):
#   tests: the collectives GPU test (compressed == plain schedule == NCCL, bit for bit) with the default
#          and with UZIP_COLL_FUSE=1, and the P2P GPU test;
#   fault: session 7's failing case, the compressed all-reduce with UZIP_P2P_LOG2=12,13, 256 MiB and 1 GiB;
#   fuse:  the collectives bench, default against UZIP_COLL_FUSE=1, two interleaved rounds;
#   log2:  the default plan against UZIP_P2P_LOG2=12,13, P2P and collectives (scripts/gpu_p2p_edges.sh);
#   chains: (session 10) broadcast, reduce and all-to-all through the pipelined executor against plain
#          NCCL / the plain schedule and against the per-hop compressed schedule (UZIP_COLL_PIPELINE=0).
# Bundle: scripts/pack_device.sh (weights, gpu/ and old/ may be left out). Usage (device):
# [STAGES=...] bash scripts/gpu_gate_x2.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
ST=${STAGES:-tests chains fault fuse log2}
coll() {  # tag, sizes, colls, then env assignments
  local tag=$1 sizes=$2 colls=$3; shift 3
  env NCCL_P2P_DISABLE=1 "$@" timeout 90 deno run -A --no-check scripts/launch.ts -n 2 bench/collectives.ts \
    --colls $colls --sizes $sizes --dtype bf16 --modes never,always --out "$R" --tag $tag > "$R/coll_$tag.log" 2>&1
  echo "== $tag rc=$?"; grep -E 'MiB|GiB|rror' "$R/coll_$tag.log" | sed 's/^\[rank 0\] //' | cut -c1-110 | tail -8
}
if [[ " $ST " == *" tests "* ]]; then
  for f in 0 1; do
    UZIP_COLL_FUSE=$f timeout 90 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test_fuse$f.log" 2>&1
    echo "== coll test UZIP_COLL_FUSE=$f rc=$?"
    sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test_fuse$f.log" | grep -E 'comparisons|FAIL|passed|failed' | tail -4
  done
  timeout 120 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
  echo "== p2p test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|TimeoutError' | tail -3
  pack
fi
if [[ " $ST " == *" chains "* ]]; then
  coll chains_executor 64MiB,256MiB broadcast,reduce,allToAll
  coll chains_perhop 64MiB,256MiB broadcast,reduce,allToAll UZIP_COLL_PIPELINE=0
  pack
fi
if [[ " $ST " == *" fault "* ]]; then
  coll fault_log2_13 256MiB,1GiB allReduce UZIP_P2P_LOG2=12,13
  coll fault_log2_13_fuse 256MiB allReduce UZIP_P2P_LOG2=12,13 UZIP_COLL_FUSE=1
  pack
fi
if [[ " $ST " == *" fuse "* ]]; then
  for round in 1 2; do
    coll r${round}_default 64MiB,256MiB allReduce,reduceScatter
    coll r${round}_fuse 64MiB,256MiB allReduce,reduceScatter UZIP_COLL_FUSE=1
    pack
  done
fi
if [[ " $ST " == *" log2 "* ]]; then
  SETTINGS="- UZIP_P2P_LOG2=12,13" ROUNDS=1 SIZES=64MiB,256MiB COLL_SIZES=64MiB,256MiB bash scripts/gpu_p2p_edges.sh
fi
pack
