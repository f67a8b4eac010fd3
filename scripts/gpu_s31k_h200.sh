#!/usr/bin/env bash
# Session 31, call 11: the pair encoder's whole-line copies (branch exp/s31-lines, .carry-run/exp) against main's
# final build (.carry-run/gpu) in one call: gpu_check --pairs --quick and memcheck / racecheck of --pairs --tiny
# on exp, then pair compression (flags 10) of both builds, two rounds in swapped order, bf16 and fp32.
# Carry [".carry-run"] (gpu/ and exp/ xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for f in .carry-run/exp/gpu_check.xz .carry-run/exp/gpu_bench.xz; do xz -dc "$f" > "${f%.xz}"; chmod +x "${f%.xz}"; done
UZIP_LIB="$PWD/.carry-run/exp/libuzip.so" timeout 200 .carry-run/exp/gpu_check --pairs --quick > "$R/exp_pairs_check.log" 2>&1
echo "exp gpu_check --pairs rc=$?"; tail -1 "$R/exp_pairs_check.log"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/exp/gpu_check --pairs --tiny > "$R/exp_san_$tool.log" 2>&1
  echo "exp $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/exp_san_$tool.log" | head -2
done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1 "gpu exp" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1 "exp gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r1_d3 "gpu exp" --dtypes 3 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
