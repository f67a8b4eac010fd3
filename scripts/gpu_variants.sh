#!/usr/bin/env bash
# A GPU call that compares the codec's kernel variants (UZIP_GPU_ENC_VARIANT / UZIP_GPU_DEC_VARIANT,
# see cuda/gpu_codec.cu) in one run: bit-exactness (gpu_check --quick) and throughput (gpu_bench, bf16 and
# fp32, 1 MiB to 1 GiB) of each, plus the baseline build in .carry-run/old when one was packed, and a
# compute-sanitizer memcheck of the default variant. Usage (device): bash scripts/gpu_variants.sh [VARIANTS]
set -u
source scripts/device_env.sh
VARS=${1:-"0 1 2"}
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
for v in $VARS; do
  export UZIP_GPU_ENC_VARIANT=$v UZIP_GPU_DEC_VARIANT=$v
  timeout 90 .carry-run/gpu/gpu_check --quick > "$R/check_v$v.log" 2>&1
  echo "== variant $v: gpu_check rc=$?"; grep -E 'PASSED|FAILED|failures|mismatch' "$R/check_v$v.log" | tail -3
  timeout 40 .carry-run/gpu/gpu_bench "$R/native_v$v.json" --dtypes 1,3 --commit "$UZIP_GIT_COMMIT" \
    --cmd "UZIP_GPU_ENC_VARIANT=$v UZIP_GPU_DEC_VARIANT=$v gpu_bench" \
    --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10 > "$R/native_v$v.log" 2>&1
  echo "   bench rc=$?"; grep -E '^(bf16|fp32) ' "$R/native_v$v.log" | cut -c1-100
  timeout 30 .carry-run/gpu/gpu_bench "$R/native_split_v$v.json" --dtypes 1 --flags 2 --commit "$UZIP_GIT_COMMIT" \
    --cmd "UZIP_GPU_ENC_VARIANT=$v gpu_bench --flags 2" --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10 \
    > "$R/native_split_v$v.log" 2>&1
  echo "   split layout rc=$?"; grep -E '^bf16 ' "$R/native_split_v$v.log" | cut -c1-100
  pack
done
unset UZIP_GPU_ENC_VARIANT UZIP_GPU_DEC_VARIANT
if [ -x .carry-run/old/gpu_bench ]; then
  timeout 40 .carry-run/old/gpu_bench "$R/native_old.json" --dtypes 1,3 --sizes-kib 1024,16384,262144,1048576 \
    --sms 0 --reps 10 > "$R/native_old.log" 2>&1
  echo "== old: rc=$?"; grep -E '^(bf16|fp32) ' "$R/native_old.log" | cut -c1-100
fi
pack
if [ "${MEMCHECK:-1}" = 1 ]; then
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
  echo "== memcheck rc=$?"; tail -3 "$R/memcheck.log"
fi
pack
