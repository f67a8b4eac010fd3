#!/usr/bin/env bash
# Session 25, call 5: the decoder's byte-table layout (new4 = exp/s25-bytetab): the decode table as one byte a
# slot (the symbol's rank) with the ranks' entries beside it, 4352 bytes a warp instead of 9472, so that
# registers bound the warps per SM: UZIP_GPU_DEC_VARIANT=5 / 6 / 7 at 32 / 28 / 24 warps (64 / 72 / 80
# registers), against the compact layout (=4, 24 warps) and main's library choice (old) in one call. First
# gpu_check --quick of new4 with variant 5 forced (every stream through the byte table). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
env UZIP_GPU_DEC_VARIANT=5 timeout 150 .carry-run/new4/gpu_check --quick > "$R/check_new4_v5.log" 2>&1
echo "gpu_check new4 --quick v5 rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new4_v5.log" | head -6
pack
echo "(${SECONDS}s)"
S="262144 1048576 4194304"
gpu_bench_run lib_d1_old old -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
for v in 4 5 6 7; do
  gpu_bench_run v${v}_d1 new4 UZIP_GPU_DEC_VARIANT=$v -- --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
for d in 2:2 4:2 1:0; do
  gpu_bench_run "lib_d${d%:*}_f${d#*:}_old" old -- --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
  for v in 5 6; do
    gpu_bench_run "v${v}_d${d%:*}_f${d#*:}" new4 UZIP_GPU_DEC_VARIANT=$v -- --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
done
pack
echo "(${SECONDS}s)"
