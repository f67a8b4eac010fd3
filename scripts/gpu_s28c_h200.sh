#!/usr/bin/env bash
# Session 28, call 3: what the encoder's word move costs at 2^15-element blocks. new1/ = a DIAGNOSTIC build
# (exp/s28-nomove-diag) that skips move_words_down for blocks of several segments: its streams are wrong
# (gpu_bench reports the mismatches; its decode figures mean nothing), only its compress times count. Against
# main (gpu/) at 2^15 and 2^14, same call: bf16 split, fp8, fp16, fp32 at 1 and 4 GiB. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in gpu new1; do
  for t in gpu_check gpu_bench; do
    [ -f .carry-run/$d/$t.xz ] && xz -dc .carry-run/$d/$t.xz > .carry-run/$d/$t && chmod +x .carry-run/$d/$t
  done
done
S="1048576 4194304"
for d in 1 4 2 3; do
  gpu_bench_run "l14_d${d}_gpu" gpu -- --dtypes $d --flags 2 --log2 14 --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_dirs "l15_d${d}" "gpu new1" --dtypes $d --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
