#!/usr/bin/env bash
# Session 16 (one H200, one call): the interleaved encoder's symbol coding pass reading its elements through
# a cp.async ring in shared memory (encode_segment_ring, branch exp/enc-ring) against main's build (old/):
# gpu_check --quick of the branch, gpu_bench of bf16, fp16, fp32 and fp8, default and split layouts, old
# against new in the same call, two rounds; lane decode told the dtype against main; then memcheck and
# racecheck.
# Pack: on main, bash scripts/gpu_check.sh --build && mkdir -p .carry/old && cp .carry/gpu/{gpu_check,
# gpu_bench,libuzip.so} .carry/old/; then on the branch PACK_DENO=none PACK_WEIGHTS=none bash
# scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
check_run check_ring 150 -- --quick
echo "(${SECONDS}s)"
for round in 1 2; do
  for dfl in "1 0" "1 2" "3 0" "3 2" "2 2" "4 0"; do
    set -- $dfl
    gpu_bench_ab "r${round}_%s_d$1_f$2" -- --dtypes $1 --flags $2 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  done
  pack
  echo "(${SECONDS}s)"
done
# Lane decode given the dtype (new: fp32 and fp8 take the global-word kernel) against old (no dtype).
for d in 3 4 1; do
  gpu_bench_ab "lanes_%s_d$d" -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
san_run 170 -- --tiny
echo "(${SECONDS}s)"
