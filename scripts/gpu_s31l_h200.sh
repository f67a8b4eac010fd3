#!/usr/bin/env bash
# Session 31, call 12: call 11's whole-line copies with a __syncwarp after each ring wait and before each refill
# (racecheck flagged call 11's form: lanes read other lanes' copies), branch exp/s31-lines, against main's final
# build: racecheck and memcheck of gpu_check --pairs --tiny, gpu_check --pairs --quick, then pair compression of
# both builds, two rounds in swapped order. Carry [".carry-run"] (gpu/ and exp/ xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for tool in racecheck memcheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/exp/gpu_check --pairs --tiny > "$R/exp_san_$tool.log" 2>&1
  echo "exp $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/exp_san_$tool.log" | head -2
done
timeout 200 .carry-run/exp/gpu_check --pairs --quick > "$R/exp_pairs_check.log" 2>&1
echo "exp gpu_check --pairs rc=$?"; tail -1 "$R/exp_pairs_check.log"
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1 "gpu exp" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs r2_d1 "exp gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
