#!/usr/bin/env bash
# Session 44: where should the lean default stop? It covers split tensors of at most 16 MiB (bf16 / fp32 at 2^12,
# fp16 at 2^13). Lean 2^13 has the ratio of the default 2^14 blocks for bf16 and fp32 (CPU: Gaussian bf16 0.6649
# against ~0.665), and between 16 and 64 MiB a call is one or two rounds of blocks, where a block's latency still
# counts. So, on main's build: split bf16, fp16 and fp32 at 16-128 MiB, the default coding (log2 0: 2^14 blocks past
# 16 MiB) against lean 2^13 and lean 2^12 forced by options, decoded through the default entry
# (UZIP_BENCH_LEAN_DEFAULT=1, as a default coding would be) and lean 2^13 also through the lean entry; two rounds.
# Then racecheck of gpu_check --tiny --lean. Carry [".carry-run"]; bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
s="16384 24576 32768 49152 65536 98304 131072"
for r in 1 2; do
  for d in 1 2 3; do
    gpu_bench_run "d${d}_default_r$r" gpu -- --dtypes $d --flags 2 --sizes-kib "$s" --sms 0 --reps 10
    gpu_bench_run "d${d}_lean13_r$r" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes $d --flags 18 --log2 13 --sizes-kib "$s" --sms 0 --reps 10
    gpu_bench_run "d${d}_lean13entry_r$r" gpu -- --dtypes $d --flags 18 --log2 13 --sizes-kib "$s" --sms 0 --reps 10
    [ $d = 2 ] || gpu_bench_run "d${d}_lean12_r$r" gpu UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes $d --flags 18 --log2 12 --sizes-kib "$s" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
SAN_TOOLS=racecheck SAN_SUFFIX=tiny_lean san_run 200 -- --tiny --lean
echo "(${SECONDS}s)"
