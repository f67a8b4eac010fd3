#!/usr/bin/env bash
# The P2P device run (2 GPUs): GPU P2P tests (bit-exactness, SIGKILLed peer), the P2P benchmark with
# NCCL_P2P_DISABLE=1 and over NVLink, the README's main job (its P2P demo), then a chunk-count sweep.
# Expects .carry/deno.xz, .carry/p2p/libuzip.so and .carry/weights; writes 8 files under $OUT (logs,
# JSON, SVG). Usage on the device: bash scripts/p2p_device.sh COMMIT
set -u
export NCCL_NVLS_ENABLE=0 UZIP_LIB=$PWD/.carry/p2p/libuzip.so UZIP_WEIGHTS_DIR=$PWD/.carry/weights
xz -dc .carry/deno.xz > /tmp/deno && chmod +x /tmp/deno
D=/tmp/deno
C=${1:-unknown}
SIZES=64KiB,1MiB,16MiB,64MiB,256MiB,1GiB
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -2
timeout 100 $D test -A --no-check tests/p2p_gpu_test.ts > $OUT/test.log 2>&1
echo "tests rc=$? $(grep -E '^(ok|FAILED)|passed|GOT ERROR|DESTROYED|EXACT OK' $OUT/test.log | tr '\n' ' ' | cut -c1-900)"
NCCL_P2P_DISABLE=1 timeout 80 $D run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes $SIZES \
  --out $OUT --commit $C > $OUT/bench_p2p_disabled.log 2>&1
echo "bench p2p_disabled rc=$?"
timeout 60 $D run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes $SIZES --out $OUT --commit $C \
  > $OUT/bench_nvlink.log 2>&1
echo "bench nvlink rc=$?"
grep -h -E 'calibration:' $OUT/bench_*.log | cut -c1-150
grep -h -A28 'speedup vs plain' $OUT/bench_p2p_disabled.log $OUT/bench_nvlink.log | cut -c1-100
timeout 45 $D run -A --no-check scripts/main.ts --reps 3 --p2p-mib 64 > $OUT/main.log 2>&1
echo "main rc=$?"; tail -16 $OUT/main.log | cut -c1-120
for k in 1 2 8; do
  echo "== UZIP_P2P_CHUNKS=$k"
  NCCL_P2P_DISABLE=1 UZIP_P2P_CHUNKS=$k timeout 20 $D run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
    --sizes 64MiB,256MiB --dtypes bf16 --modes never,always --reps 5 --out /tmp/sweep 2>&1 | grep -E 'x plain' | cut -c1-120
done
