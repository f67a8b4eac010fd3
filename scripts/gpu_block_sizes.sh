#!/usr/bin/env bash
# One H200: the codec at block sizes 2^14, 2^15 and 2^16 (gpu_bench --log2), bf16 and fp32, default and
# split layout, 16 MiB-1 GiB, in one call: the data for choosing a larger block (two ANS segments per
# block) for large tensors. Usage (device): bash scripts/gpu_block_sizes.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
for fl in 0 2; do
  for l in 14 15 16; do
    timeout 60 .carry-run/gpu/gpu_bench "$R/bench_log2_${l}_f$fl.json" --log2 $l --flags $fl --dtypes 1,3 --sms 0 \
      --reps 10 --sizes-kib 16384,262144,1048576 --commit "$UZIP_GIT_COMMIT" --cmd "gpu_bench --log2 $l --flags $fl" \
      > "$R/bench_log2_${l}_f$fl.log" 2>&1
    echo "== log2 $l flags $fl rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_log2_${l}_f$fl.log" | cut -c1-100
  done
  pack
done
