#!/usr/bin/env bash
# One H200 call comparing this build with the baseline in .carry-run/old (packed from .carry/old): bit
# exactness of this build (gpu_check --quick, memcheck --tiny), throughput and per-call latency of both
# builds from 64 KiB to 1 GiB (bf16, fp32; default and split layout), and this build at block sizes 2^12
# and 2^13 from 64 KiB to 64 MiB (ratio against latency). Usage (device): bash scripts/gpu_latency_ab.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 90 .carry-run/gpu/gpu_check --quick > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|failures|mismatch' "$R/check.log" | tail -3
SIZES=64,1024,4096,16384,65536,262144,1048576
for b in gpu old; do
  for fl in 0 2; do
    timeout 60 .carry-run/$b/gpu_bench "$R/bench_${b}_f$fl.json" --dtypes 1,3 --flags $fl --sizes-kib $SIZES --sms 0 \
      --reps 10 --commit "$UZIP_GIT_COMMIT" --cmd "$b/gpu_bench --flags $fl --sizes-kib $SIZES" > "$R/bench_${b}_f$fl.log" 2>&1
    echo "== $b flags $fl rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_${b}_f$fl.log" | cut -c1-120
  done
  pack
done
for l in 12 13; do
  timeout 40 .carry-run/gpu/gpu_bench "$R/bench_log2_$l.json" --log2 $l --dtypes 1,3 --sms 0 --reps 10 \
    --sizes-kib 64,1024,4096,16384,65536 --commit "$UZIP_GIT_COMMIT" --cmd "gpu_bench --log2 $l" > "$R/bench_log2_$l.log" 2>&1
  echo "== log2 $l rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_log2_$l.log" | cut -c1-120
done
pack
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
echo "== memcheck rc=$?"; tail -2 "$R/memcheck.log"
pack
