#!/usr/bin/env bash
# Session 39, first call: main's build (gpu/) checked (gpu_check --quick), then against two experiments in
# the same call: slot/ (branch exp/s38-dec-slotrounds: the decoder's table filled by slot rounds for every
# k <= 192) and red/ (branch exp/s39-redux: warp reductions as one redux.sync each, warp_normalize's
# arg-maxes over packed keys), red/'s own gpu_check --quick first. Split bf16 / fp32 1 MiB - 1 GiB two
# rounds, lean 2^12, the default layout of bf16 / fp16 / fp8; on an H200 also main's 4 GiB split calls.
# Carry [".carry-run"]: gpu/, slot/, red/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run quick 200 -- --quick
echo "(${SECONDS}s)"
timeout 200 .carry-run/red/gpu_check --quick > "$R/red_quick.log" 2>&1
echo "red gpu_check --quick rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/red_quick.log" | head -4
pack; echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_dirs r${r}_split "gpu slot red" --dtypes 1,3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs lean12 "gpu slot red" --dtypes 1 --flags 18 --log2 12 --sizes-kib "1024 16384" --sms 0 --reps 20
gpu_bench_dirs dflt "gpu slot red" --dtypes 1,2,4 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt"; then
  gpu_bench_run main4g gpu -- --dtypes 1,3 --flags 2 --sizes-kib "4194304" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
fi
