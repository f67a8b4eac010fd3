#!/usr/bin/env bash
# Session 16, last call (one H200): the lane encoder's size rule (variant 4 from 4 rounds of blocks):
# gpu_check of lane streams with variant 4 forced and with the default rule, lane streams of bf16 and fp32
# from 256 MiB to 2 GiB against the interleaved split layout, then the interleaved codec's state for issue #3:
# bf16, fp16, fp32 and fp8, default and split layouts, 1 MiB to 1 GiB, whole chip, the d2d copy in the same
# call (gpu_bench checks each size's round trip). Pack: PACK_DENO=none PACK_WEIGHTS=none bash
# scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
check_run check_lanes_v4 90 UZIP_GPU_LANES_ENC_VARIANT=4 -- --lanes --quick
check_run check_lanes 90 -- --lanes --quick
echo "(${SECONDS}s)"
for d in 1 3; do
  gpu_bench_run "lanes_rule_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,524288,1048576,2097152 --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
for d in 1 2 3 4; do
  for fl in 0 2; do
    gpu_bench_run "state_d${d}_f$fl" gpu -- --dtypes $d --flags $fl --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
  done
  pack
done
echo "(${SECONDS}s)"
