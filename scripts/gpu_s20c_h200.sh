#!/usr/bin/env bash
# Session 20, second call: decoder variant 4 reworked (the compact layout with 8-step groups and the symbols
# in shared memory, the ring without its copy of quarter 0; branch exp/s20-dec24) against main (a6c48d8,
# old/) in the same call, decompress median of 10 (gpu_bench checks every round trip): bf16 first, then
# gpu_check --quick with UZIP_GPU_DEC_VARIANT=4, the other dtypes and a second bf16 round, memcheck and
# racecheck of --tiny with it (in that order: little device time was left). Packing after each stage.
# Pack: as scripts/gpu_s20b_h200.sh without Deno; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
ab() {  # TAG ARGS...: old (the library's choice), this build forced to variant 4
  local tag=$1
  shift
  gpu_bench_run "${tag}_old" old -- "$@"
  gpu_bench_run "${tag}_dec4" gpu UZIP_GPU_DEC_VARIANT=4 -- "$@"
}
ab r1_d1_f2 --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
check_run check_dec4 150 UZIP_GPU_DEC_VARIANT=4 -- --quick
echo "(${SECONDS}s)"
ab r1_d2_f2 --dtypes 2 --flags 2 --sizes-kib "1048576" --sms 0 --reps 10
ab r1_d4_f2 --dtypes 4 --flags 2 --sizes-kib "1048576" --sms 0 --reps 10
ab r1_d1_f0 --dtypes 1 --flags 0 --sizes-kib "1048576" --sms 0 --reps 10
ab r2_d1_f2 --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
SAN_SUFFIX=dec4 san_run 120 UZIP_GPU_DEC_VARIANT=4 -- --tiny
echo "(${SECONDS}s)"
