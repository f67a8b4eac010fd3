#!/usr/bin/env bash
# Kept to reproduce bench/results/h200-2026-12-01T0050-session7/1-eager-finish: variant 3 exists only at 0c4e278
# (measured slower and removed).
# One H200: the encoder that finishes a deferred block as soon as its look-back would not wait
# (UZIP_GPU_ENC_VARIANT=3, compress_kernel<W, 8, 4, true>) against the default (0), which finishes one only
# when all 4 stages hold a waiting block, in the same call. Correctness of variant 3: gpu_check (CHECK=full
# or quick, default quick) and racecheck of gpu_check --tiny; speed: gpu_bench bf16 / fp32, default and
# split layout, the variants alternating (ROUNDS, default 2; SIZES in KiB). Bundle: scripts/pack_device.sh
# (gpu/ is enough).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
q=--quick; [ "${CHECK:-quick}" = full ] && q=
UZIP_GPU_ENC_VARIANT=3 timeout 240 .carry-run/gpu/gpu_check $q > "$R/check_v3.log" 2>&1
echo "== gpu_check v3 $q rc=$?"; grep -E 'FAIL|failures' "$R/check_v3.log" | tail -4
UZIP_GPU_ENC_VARIANT=3 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny \
  > "$R/racecheck_v3.log" 2>&1
echo "== racecheck v3 rc=$?"; grep -E 'RACECHECK SUMMARY|PASSED|FAILED' "$R/racecheck_v3.log" | tail -2
pack
SIZES=${SIZES:-1024,16384,65536,262144,1048576}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for fl in 0 2; do
    for v in 0 3; do
      tag=r${round}_f${fl}_enc$v
      UZIP_GPU_ENC_VARIANT=$v timeout 90 .carry-run/gpu/gpu_bench "$R/bench_$tag.json" --flags $fl --dtypes 1,3 --sms 0 \
        --reps 10 --sizes-kib "$SIZES" --commit "$UZIP_GIT_COMMIT" \
        --cmd "UZIP_GPU_ENC_VARIANT=$v gpu_bench --flags $fl --sizes-kib $SIZES" > "$R/bench_$tag.log" 2>&1
      echo "== $tag rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_$tag.log" | cut -c1-100
    done
    pack
  done
done
