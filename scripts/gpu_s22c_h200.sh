#!/usr/bin/env bash
# Session 22, call 3 (branch exp/s22-enc-pipe): the encoder's step with its corrections as selects and the
# word store as one predicated st, in main's group loop (this build), against main (old/) in the same call,
# median of 10; gpu_check --quick, racecheck and memcheck of gpu_check --tiny; then ncu (--set full) of one
# bf16 split 256 MiB compression each of main, new1/ (call 2's build: stores after the next group's chain)
# and this build, to see what bounds the encoder when the SMs are full.
# Pack: .carry/old = main's tools; PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; new1/ =
# call 2's gpu_bench and libuzip.so; libraries xz'd; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 120 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
SAN_TOOLS="racecheck memcheck" san_run 150 -- --tiny
echo "(${SECONDS}s)"
for d in old new1 gpu; do NCU_TOOLS=$d ncu_kernel compress_kernel 262144 2 enc_$d; pack; echo "(${SECONDS}s)"; done
