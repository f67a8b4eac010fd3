#!/usr/bin/env bash
# The defaults of session 7 (four lanes; 16 MiB chunks in 2^12 blocks) on 2 GPUs, plain NCCL in every
# run: the P2P bench (NCCL_P2P_DISABLE=1, bf16 Gaussian), the P2P and collectives GPU tests, the
# collectives bench with NCCL_P2P_DISABLE=1 (bf16 all-reduce, reduce-scatter, all-gather 16-256 MiB;
# fp32 all-reduce and reduce-scatter 64 / 256 MiB; never, always, auto), and auto over NVLink
# (collectives 64 KiB-256 MiB, P2P 64 KiB-1 GiB). Bundle: scripts/pack_device.sh.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
L="deno run -A --no-check scripts/launch.ts -n 2"
NCCL_P2P_DISABLE=1 timeout 120 $L bench/p2p.ts --dtypes bf16 --datasets gaussian --modes never,always,auto \
  --sizes 16MiB,32MiB,64MiB,256MiB --reps 9 --out "$R" --tag p2p_disabled > "$R/p2p.log" 2>&1
echo "== p2p rc=$?"; grep -h -A8 'speedup vs plain' "$R/p2p.log" | grep -E 'MiB|GiB' | cut -c10-90
pack
timeout 100 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_test.log" 2>&1
echo "== p2p tests rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_test.log" | grep -E 'passed|failed|FAILED' | tail -3
timeout 90 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "== coll test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL |passed|failed' | head -6
pack
NCCL_P2P_DISABLE=1 timeout 150 $L bench/collectives.ts --colls allReduce,reduceScatter,allGather \
  --sizes 16MiB,32MiB,64MiB,256MiB --dtype bf16 --modes never,always,auto --out "$R" --tag slow_bf16 > "$R/coll_bf16.log" 2>&1
echo "== coll bf16 rc=$?"; grep -E 'MiB' "$R/coll_bf16.log" | grep -v "#" | sed 's/^\[rank 0\] //' | cut -c1-100
pack
NCCL_P2P_DISABLE=1 timeout 120 $L bench/collectives.ts --colls allReduce,reduceScatter --sizes 64MiB,256MiB \
  --dtype fp32 --modes never,always,auto --out "$R" --tag slow_fp32 > "$R/coll_fp32.log" 2>&1
echo "== coll fp32 rc=$?"; grep -E 'MiB' "$R/coll_fp32.log" | grep -v "#" | sed 's/^\[rank 0\] //' | cut -c1-100
pack
timeout 120 $L bench/collectives.ts --colls allReduce,allGather --sizes 64KiB,1MiB,16MiB,64MiB,256MiB --dtype bf16 \
  --modes never,auto --out "$R" --tag nvlink > "$R/coll_nvlink.log" 2>&1
echo "== coll nvlink rc=$?"; grep -E 'iB' "$R/coll_nvlink.log" | grep -v "#" | grep auto | sed 's/^\[rank 0\] //' | cut -c1-100
pack
timeout 90 $L bench/p2p.ts --sizes 64KiB,1MiB,16MiB,64MiB,256MiB,1GiB --dtypes bf16 --datasets gaussian \
  --modes never,auto --reps 7 --out "$R" --tag nvlink > "$R/p2p_nvlink.log" 2>&1
echo "== p2p nvlink rc=$?"; grep -h -A10 'speedup vs plain' "$R/p2p_nvlink.log" | grep -E 'iB' | cut -c10-90
pack
