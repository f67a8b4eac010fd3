#!/usr/bin/env bash
# Session 25, call 1: the decoder's word by a shuffle (each step's ring word loaded by every lane at g + lane
# right after the previous step, then taken from lane `rank`: the chain after the ballot loses its add, mask,
# address and shared load). new1 = exp/s25-shfl (compact layout only), new2 = exp/s25-shfl2 (also the
# mirrored ring of the default and fp32 kernels), old = main (87c2e1c): decode A/B in one call, bf16 split
# two rounds in opposite orders, then the other types; gpu_check --quick of new2 with the library's choice and
# with the compact decoder forced (UZIP_GPU_DEC_VARIANT=4). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old new1 new2" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
pack
gpu_bench_dirs r2_d1_f2 "new2 new1 old" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 3:2 2:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new1 new2" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
for v in lib:UZIP_S25_NOOP=1 v4:UZIP_GPU_DEC_VARIANT=4; do
  env ${v#*:} timeout 150 .carry-run/new2/gpu_check --quick > "$R/check_new2_${v%%:*}.log" 2>&1
  echo "gpu_check new2 --quick ${v#*:} rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new2_${v%%:*}.log" | head -6
  pack
done
echo "(${SECONDS}s)"
