#!/usr/bin/env bash
# Session 37: lean sections (flag 0x10, FORMAT.md "Lean sections") on the GPU (first run on an H100 in session 37,
# in parts: bench/results/h100-2026-12-05-session37/). Checks first: every lean case of gpu_check (GPU stream == CPU stream byte for byte,
# both cross-decodings, every other decoder refusing, damaged streams), memcheck of the small ones, and
# gpu_check --quick of the rest (the shared code the lean kernels were cut from changed). Then the question the
# format was made for (issue #3's 1 MiB bar, 20 us): bf16 split layout at 2^12 and 2^13 blocks with lean sections
# (flags 18) and without (2), 1 and 16 MiB, two rounds; then the default coding against main's build (old/: the
# branch's changes to the shared code must cost nothing) at 1, 16, 256 MiB and 1 GiB, bf16 and fp32.
# Carry [".carry-run"] with this build in gpu/ and main's in old/ (xz, see docs/GPU_CODEC_NOTES.md, 37th
# session) and the commit file; no Deno needed.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run lean 200 -- --lean
SAN_TOOLS=memcheck SAN_SUFFIX=lean san_run 150 -- --lean --tiny
check_run quick 240 -- --quick
for r in 1 2; do
  for fl in 2 18; do
    for l in 12 13; do
      gpu_bench_run r${r}_bf16_f${fl}_l$l gpu -- --dtypes 1 --flags $fl --log2 $l --sizes-kib "1024 16384" --sms 0 --reps 20
    done
  done
done
pack
gpu_bench_run big_f18 gpu -- --dtypes 1,3 --flags 18 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_ab ab_f2_%s -- --dtypes 1,3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
