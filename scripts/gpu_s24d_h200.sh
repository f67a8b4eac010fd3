#!/usr/bin/env bash
# Session 24, call 3: the encoder at 12 warps per SM (3 CTAs; fewer blocks in flight, so less of the L2 held
# by blocks waiting for their coding pass's re-read) against main's 16, and the decode table refactor's bf16
# split decode. old = main's build (8b1bccd's codec); new7 = exp/s24-w12 (variant 2 = compress_kernel<W, 8,
# 3>: 152 registers, no spills; variant 1 = <W, 16, 3>: 168, spills); new6 = exp/s24-tabinfo. Carry
# [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="--dtypes 1 --flags 2 --sizes-kib"
for r in 1 2; do
  gpu_bench_run r${r}_d1_f2_old old -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new7v2 new7 UZIP_GPU_ENC_VARIANT=2 -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new7v1 new7 UZIP_GPU_ENC_VARIANT=1 -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new6 new6 -- $S "16384 262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
gpu_bench_run r1_d1_f2_4g_old old -- $S 4194304 --sms 0 --reps 5
gpu_bench_run r1_d1_f2_4g_new7v2 new7 UZIP_GPU_ENC_VARIANT=2 -- $S 4194304 --sms 0 --reps 5
for d in 2:2 3:2 1:0; do
  A="--dtypes ${d%:*} --flags ${d#*:} --sizes-kib"
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_old" old -- $A "262144 1048576" --sms 0 --reps 10
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_new7v2" new7 UZIP_GPU_ENC_VARIANT=2 -- $A "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
