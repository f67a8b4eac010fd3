#!/usr/bin/env bash
# One H200: blocks of several ANS segments (2^15, 2^16) against the baseline build in .carry-run/old, with
# 2^14 as the control, bf16 and fp32, default and split layout, 256 MiB and 1 GiB, in one call; full
# gpu_check and memcheck --tiny of this build first. Usage (device): bash scripts/gpu_multiseg_ab.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 120 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|failures' "$R/check.log" | tail -2
for b in gpu old; do
  for l in 14 15 16; do
    timeout 60 .carry-run/$b/gpu_bench "$R/bench_${b}_log2_$l.json" --log2 $l --dtypes 1,3 --sms 0 --reps 10 \
      --sizes-kib 262144,1048576 --commit "$UZIP_GIT_COMMIT" --cmd "$b/gpu_bench --log2 $l" > "$R/bench_${b}_log2_$l.log" 2>&1
    echo "== $b log2 $l rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_${b}_log2_$l.log" | cut -c1-75
  done
  pack
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
echo "== memcheck rc=$?"; tail -1 "$R/memcheck.log"
pack
