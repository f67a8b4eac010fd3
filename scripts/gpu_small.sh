#!/usr/bin/env bash
# Small messages on one H200: compress/decompress latency and ratio of bf16 and fp32 from 64 KiB to 16 MiB
# at block sizes 2^10, 2^12 and 2^14 (the default), native gpu_bench (median of 20, copy in the same run).
set -u
source scripts/device_env.sh
for l in 10 12 14; do
  timeout 40 .carry-run/gpu/gpu_bench "$R/small_log2_$l.json" --log2 $l --dtypes 1,3 --sms 0 --reps 20 \
    --sizes-kib 64,256,1024,4096,16384 --commit "$UZIP_GIT_COMMIT" --cmd "gpu_bench --log2 $l" > "$R/small_log2_$l.log" 2>&1
  echo "== log2 $l rc=$?"; grep -E '^(bf16|fp32) ' "$R/small_log2_$l.log" | cut -c1-100
done
pack
