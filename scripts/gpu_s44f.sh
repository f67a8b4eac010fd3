#!/usr/bin/env bash
# Session 44, after gpu_s44e (whole chip: lean 2^13 wins at 24-32 MiB for bf16 and fp16, lean 2^12 at 24-32 MiB and
# lean 2^13 at 48-64 MiB for fp32): the same streams under SM budgets of 16, 32 and 64, where those calls take
# several rounds and smaller blocks may lose. One round, main's build; streams forced by options as in gpu_s44e.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
s="24576 32768 49152 65536"
for d in 1 2 3; do
  gpu_bench_run "d${d}_default_sms" gpu -- --dtypes $d --flags 2 --sizes-kib "$s" --sms 16,32,64 --reps 10
  gpu_bench_run "d${d}_lean13_sms" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes $d --flags 18 --log2 13 --sizes-kib "$s" --sms 16,32,64 --reps 10
  [ $d = 3 ] && gpu_bench_run "d${d}_lean12_sms" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes $d --flags 18 --log2 12 --sizes-kib "$s" --sms 16,32,64 --reps 10
  pack
done
echo "(${SECONDS}s)"
