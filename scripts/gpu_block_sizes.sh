#!/usr/bin/env bash
# One H200: the codec at block sizes 2^14, 2^15 and 2^16 (gpu_bench --log2), bf16 and fp32, in one call:
# the data for choosing a larger block (two ANS segments per block) for large tensors. BUILDS (default
# "gpu"; "gpu old" adds the baseline packed from .carry/old), FLAGS (default "0 2": default and split
# layout) and SIZES (KiB, default 16384,262144,1048576) narrow or widen it.
# Usage (device): bash scripts/gpu_block_sizes.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
SIZES=${SIZES:-16384,262144,1048576}
for b in ${BUILDS:-gpu}; do
  for fl in ${FLAGS:-0 2}; do
    for l in 14 15 16; do
      tag=${b}_log2_${l}_f$fl
      timeout 60 .carry-run/$b/gpu_bench "$R/bench_$tag.json" --log2 $l --flags $fl --dtypes 1,3 --sms 0 --reps 10 \
        --sizes-kib "$SIZES" --commit "$UZIP_GIT_COMMIT" --cmd "$b/gpu_bench --log2 $l --flags $fl" > "$R/bench_$tag.log" 2>&1
      echo "== $b log2 $l flags $fl rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_$tag.log" | cut -c1-100
    done
    pack
  done
done
