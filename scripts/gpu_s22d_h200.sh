#!/usr/bin/env bash
# Session 22, call 4 (branch exp/s22-enc-pipe): the stores after the next group's chain again, now with the
# element buffer refilled unconditionally (this build), against call 3's build (new1/: main's group loop
# with the step's selects) and main (old/) in the same call, median of 10; gpu_check --quick; racecheck and
# memcheck of gpu_check --tiny.
# Pack: .carry/old = main's tools; PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; new1/ =
# call 3's gpu_bench and libuzip.so; libraries xz'd; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 120 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1 gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old new1 gpu" --dtypes 1 --flags 0 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old new1 gpu" --dtypes 2 --flags 2 --sizes-kib "16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old new1 gpu" --dtypes 4 --flags 2 --sizes-kib "16384 262144" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "old new1 gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
SAN_TOOLS="racecheck memcheck" san_run 150 -- --tiny
echo "(${SECONDS}s)"
