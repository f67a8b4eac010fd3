#!/usr/bin/env bash
# A short GPU call (~1 min): the codec's bit-exactness, its kernels at both block sizes against the
# previous kernels, and the 2-rank collectives exactness test. Same bundle as scripts/gpu_session.sh.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 60 .carry-run/gpu/gpu_check --quick > "$R/gpu_check.log" 2>&1
echo "gpu_check rc=$?"; grep -E 'PASSED|FAILED|failures' "$R/gpu_check.log" | tail -3
for cfg in "gpu 16" "gpu 14" "old 14"; do
  set -- $cfg
  [ -x ".carry-run/$1/gpu_bench" ] || continue  # old/ is optional (scripts/pack_device.sh)
  L=(--log2 "$2"); [ "$1" = old ] && L=()  # the old tool has no --log2; its library defaults to 14
  timeout 25 ".carry-run/$1/gpu_bench" "$R/native_$1_$2.json" "${L[@]}" --dtypes 1,3 \
    --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10 > "$R/native_$1_$2.log" 2>&1
  echo "== $1 log2 $2 rc=$?"; grep -E '^(bf16|fp32) ' "$R/native_$1_$2.log" | cut -c1-100
done
pack
timeout 60 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "coll test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL|passed|failed' | head -8
pack
