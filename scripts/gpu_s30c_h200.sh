#!/usr/bin/env bash
# Session 30, call 3. gpu/ = exp/s30-rounds (main's kernels; the host sizes grids of whole rounds: the fewest
# CTAs that take the call's blocks in as many rounds, so that no last round runs part-empty; for the decoder
# the blocks are those of the hinted dtype's default block size). UZIP_GPU_WHOLE_ROUNDS=0 gives main's grids
# in the same build. (1) gpu_check --quick (rounds on, and off); (2) A/B on / off, swapped order, bf16 split
# 64 MiB - 4 GiB at sizes of whole and part-empty last rounds (encoder 2112 warps, compact decoder 3168);
# fp32, fp16, fp8 split and bf16 default layout once. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check_on 120 -- --quick
check_run check_off 120 UZIP_GPU_WHOLE_ROUNDS=0 -- --quick
echo "(${SECONDS}s)"
S="65536 131072 196608 262144 393216 524288 1048576 4194304"
for r in 1 2; do
  order="off on"; [ $r = 2 ] && order="on off"
  for m in $order; do
    envs=(); [ $m = off ] && envs=(UZIP_GPU_WHOLE_ROUNDS=0)
    gpu_bench_run "r${r}_d1_f2_$m" gpu "${envs[@]}" -- --dtypes 1 --flags 2 --log2 14 --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
for d in 3:2 2:2 4:2 1:0; do
  for m in off on; do
    envs=(); [ $m = off ] && envs=(UZIP_GPU_WHOLE_ROUNDS=0)
    gpu_bench_run "r1_d${d%:*}_f${d#*:}_$m" gpu "${envs[@]}" -- --dtypes ${d%:*} --flags ${d#*:} \
      --sizes-kib "131072 262144 524288 1048576" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
