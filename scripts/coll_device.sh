#!/usr/bin/env bash
# The collectives device run (2 GPUs, at most ~150 s): the GPU exactness test (every result vs the
# plain schedule and vs NCCL, bit for bit; the pipelined executor with many chunks; auto), then the
# benchmark of plain NCCL vs compressed vs auto, bf16 16..256 MiB, all-reduce and all-gather, with
# NCCL_P2P_DISABLE=1 and over NVLink. Writes logs, JSON and SVG under $OUT.
# Expects $UZIP_LIB (default .carry/libuzip.so, built from this tree) and Deno at $DENO (default
# /tmp/deno, unpacked from .carry/deno.xz when missing). Usage on the device: bash scripts/coll_device.sh [COMMIT]
set -u
export NCCL_NVLS_ENABLE=0
export UZIP_LIB=${UZIP_LIB:-$PWD/.carry/libuzip.so}
D=${DENO:-/tmp/deno}
if [ ! -x "$D" ]; then xz -dc .carry/deno.xz > /tmp/deno && chmod +x /tmp/deno; D=/tmp/deno; fi
C=${1:-unknown}
OUT=${OUT:-/tmp/coll_out}
mkdir -p "$OUT"
timeout 55 "$D" test -A --no-check tests/collectives_gpu_test.ts > "$OUT/coll_test.log" 2>&1
echo "gpu test rc=$?"
grep -E 'comparisons|FAIL|passed|failed|SKIP' "$OUT/coll_test.log" | cut -c1-200 | head -24
for link in p2p_disabled nvlink; do
  env $([ $link = p2p_disabled ] && echo NCCL_P2P_DISABLE=1) timeout 45 "$D" run -A --no-check scripts/launch.ts \
    -n 2 bench/collectives.ts --colls allReduce,allGather --sizes 16MiB,256MiB --dtype bf16 \
    --modes never,always,auto --out "$OUT" --tag $link --commit "$C" > "$OUT/coll_bench_$link.log" 2>&1
  echo "bench $link rc=$?"
  grep -E 'auto model|MiB|wrote|rror' "$OUT/coll_bench_$link.log" | sed 's/^\[rank 0\] //' | cut -c1-110
done
