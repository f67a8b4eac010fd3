#!/usr/bin/env bash
# Session 39, first call: main's build (gpu/) against two experiments in
# the same call: rule/ (branch exp/s39-slotrule: a call of one round fills every decoder table of at most
# 192 symbols by slot rounds) and red/ (branch exp/s39-redux: warp reductions as one redux.sync each, warp_normalize's
# arg-maxes over packed keys), each checked by gpu_check first. Split bf16 / fp32 1 MiB - 1 GiB two
# rounds, lean 2^12, the default layout of bf16 / fp16 / fp8; on an H200 also main's 4 GiB split calls.
# Carry [".carry-run"]: gpu/, rule/, red/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
# main's kernels are byte for byte those checked on the H100 in session 38 (3-main-checks): the experiments
# are checked here, rule/ also with lean streams (its lean kernel takes the slot rounds in one-round calls).
for t in "red --quick" "rule --quick" "rule --lean"; do
  set -- $t
  timeout 200 ".carry-run/$1/gpu_check" "$2" > "$R/$1_check${2#-}.log" 2>&1
  echo "$1 gpu_check $2 rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/$1_check${2#-}.log" | head -4
  pack; echo "(${SECONDS}s)"
done
for r in 1 2; do
  gpu_bench_dirs r${r}_split "gpu rule red" --dtypes 1,3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs lean12 "gpu rule red" --dtypes 1 --flags 18 --log2 12 --sizes-kib "1024 16384" --sms 0 --reps 20
gpu_bench_dirs dflt "gpu rule red" --dtypes 1,2,4 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt"; then
  gpu_bench_run main4g gpu -- --dtypes 1,3 --flags 2 --sizes-kib "4194304" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
fi
