#!/usr/bin/env bash
# One H200 call comparing this build's kernel variants with the baseline build in .carry-run/old (packed
# from .carry/old): bit exactness (gpu_check, full for variant 0 and --quick for the others; memcheck
# --tiny), throughput and per-call latency from 64 KiB to 1 GiB (bf16, fp32; default and split layout)
# of each, all in the same call (OLD_VARIANT: the variant the baseline runs, default 0; MEMCHECK=0 skips
# the memcheck run). Usage (device):
# bash scripts/gpu_latency_ab.sh [VARIANTS, default "0"]
set -u
source scripts/device_env.sh
VARS=${1:-0}
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
SIZES=64,1024,4096,16384,65536,262144,1048576
for v in $VARS; do
  export UZIP_GPU_ENC_VARIANT=$v UZIP_GPU_DEC_VARIANT=$v
  q=--quick; [ "$v" = 0 ] && q=
  timeout 200 .carry-run/gpu/gpu_check $q > "$R/check_v$v.log" 2>&1
  echo "== variant $v: gpu_check $q rc=$?"; grep -E 'PASSED|FAILED|failures|mismatch' "$R/check_v$v.log" | tail -2
done
for b in gpu:0 ${VARS/0/} old:${OLD_VARIANT:-0}; do
  [ "${b%%:*}" = old ] && [ ! -x .carry-run/old/gpu_bench ] && continue
  case $b in *:*) ;; *) b=gpu:$b ;; esac
  dir=${b%%:*} v=${b##*:}
  export UZIP_GPU_ENC_VARIANT=$v UZIP_GPU_DEC_VARIANT=$v
  for fl in 0 2; do
    tag=${dir}_v${v}_f$fl
    timeout 60 .carry-run/$dir/gpu_bench "$R/bench_$tag.json" --dtypes 1,3 --flags $fl --sizes-kib $SIZES --sms 0 \
      --reps 10 --commit "$UZIP_GIT_COMMIT" --cmd "UZIP_GPU_ENC_VARIANT=$v $dir/gpu_bench --flags $fl --sizes-kib $SIZES" \
      > "$R/bench_$tag.log" 2>&1
    echo "== $tag rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_$tag.log" | cut -c1-120
  done
  pack
done
unset UZIP_GPU_ENC_VARIANT UZIP_GPU_DEC_VARIANT
if [ "${MEMCHECK:-1}" = 1 ]; then
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
  echo "== memcheck rc=$?"; tail -2 "$R/memcheck.log"
fi
pack
