#!/usr/bin/env bash
# One H200 call: (1) this build's occupied-SM cases and full gpu_check; (2) codec speed of this build
# against the baseline in .carry-run/old, two interleaved rounds, 16 MiB-1 GiB, bf16 and fp32, both
# layouts; (3) per-call latency by block size (2^10-2^14) from 64 KiB to 16 MiB, bf16 and fp32, for the
# small-tensor default. Usage (device): bash scripts/gpu_small_blocks.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 120 .carry-run/gpu/gpu_check --occupied > "$R/occupied_gpu.log" 2>&1
echo "== gpu_check --occupied rc=$?"; grep -E 'occupied|PASSED|FAILED' "$R/occupied_gpu.log" | cut -c1-160
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; tail -1 "$R/check.log"
pack
BIG=16384,65536,262144,1048576
for round in 1 2; do
  for dir in gpu old; do
    for fl in 0 2; do
      tag=${dir}_f${fl}_r$round
      timeout 60 .carry-run/$dir/gpu_bench "$R/ab_$tag.json" --dtypes 1,3 --flags $fl --sizes-kib $BIG --sms 0 \
        --reps 10 --commit "$UZIP_GIT_COMMIT" --cmd "$dir/gpu_bench --dtypes 1,3 --flags $fl --sizes-kib $BIG" \
        > "$R/ab_$tag.log" 2>&1
      echo "== $tag rc=$?"; grep -E '^(bf16|fp32) ' "$R/ab_$tag.log" | cut -c1-80
    done
  done
  pack
done
SMALL=64,256,1024,4096,16384
for k in 10 11 12 13 14; do
  timeout 60 .carry-run/gpu/gpu_bench "$R/log2_$k.json" --dtypes 1,3 --flags 0 --sizes-kib $SMALL --sms 0 --log2 $k \
    --reps 15 --commit "$UZIP_GIT_COMMIT" --cmd "gpu_bench --dtypes 1,3 --flags 0 --sizes-kib $SMALL --log2 $k" \
    > "$R/log2_$k.log" 2>&1
  echo "== log2 $k rc=$?"; grep -E '^(bf16|fp32) ' "$R/log2_$k.log"
done
pack
