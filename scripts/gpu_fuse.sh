#!/usr/bin/env bash
# One H200: the fused decode-reduce against decode then reduce, same run (tests/native/gpu_fuse_bench.cu),
# bf16 and fp32, 4-256 MiB. Bundle: scripts/pack_device.sh. Usage (device): bash scripts/gpu_fuse.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 120 .carry-run/gpu/gpu_fuse_bench "$R/fuse.json" --reps 15 --commit "$UZIP_GIT_COMMIT" \
  --cmd "gpu_fuse_bench --reps 15" 2>&1 | tee "$R/fuse.log"
echo "rc=${PIPESTATUS[0]}"
pack
