#!/usr/bin/env bash
# Session 22, call 2 (branch exp/s22-enc-pipe): the encoder's coding loop with each group's word stores after
# the next group's chain (new1/), and that plus the step's corrections as selects and the word store as one
# predicated st (this build), against main (old/) in the same call, median of 10; then gpu_check --quick and
# racecheck and memcheck of gpu_check --tiny (this build also holds main's merged decode table fill).
# Pack: .carry/old = main's tools; PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; new1/ =
# the first commit's gpu_bench and libuzip.so; libraries xz'd; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 120 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1 gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old new1 gpu" --dtypes 1 --flags 0 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "16384 262144" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
SAN_TOOLS="racecheck memcheck" san_run $(((570 - SECONDS) / 2)) -- --tiny
echo "(${SECONDS}s)"
