#!/usr/bin/env bash
# Session 33, call 2 (prepared; not run: the device machine stopped answering and no other was lent this
# session): format version 2's build (gpu/, as call 1): racecheck of gpu_check --tiny (cut off at
# 120 s in call 1), the TypeScript GPU suites, and the kernel rules re-weighed with the new step, same call:
# bf16 split 2^15 against 2^14 blocks (256 MiB - 1 GiB; bf16 takes 2^15 only from 2^30 elements), encoder
# variant 1 (4-step groups, 20 warps) against the default 0 for bf16 and fp8, warp pairs (variant 3) at bf16
# 16 MiB, pair coding at 2^15; then ncu of one bf16 split compression at 1 GiB. Carry [".carry-run"] (gpu/ xz,
# Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
# The review's commit changed the lane encoder's table build (uzip_lanes_enc_entry through the shared
# entry: same values, a double instead of a 64-bit integer division): the whole --quick (lane cases among them).
check_run all_quick 240 -- --quick
tail -2 "$R/all_quick.log"
gpu_bench_run lanes_f6 gpu -- --dtypes 1 --flags 6 --sizes-kib "262144 1048576" --sms 0 --reps 10
SAN_TOOLS=racecheck san_run 300 -- --tiny
echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_run r${r}_bf16_lg14 gpu -- --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_bf16_lg15 gpu -- --dtypes 1 --flags 2 --log2 15 --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
gpu_bench_run bf16_v0 gpu UZIP_GPU_ENC_VARIANT=0 -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_run bf16_v1 gpu UZIP_GPU_ENC_VARIANT=1 -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_run bf16_v3 gpu UZIP_GPU_ENC_VARIANT=3 -- --dtypes 1 --flags 2 --sizes-kib "16384" --sms 0 --reps 10
gpu_bench_run fp8_v0 gpu UZIP_GPU_ENC_VARIANT=0 -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run fp8_v1 gpu UZIP_GPU_ENC_VARIANT=1 -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_run pairs_lg14 gpu -- --dtypes 1 --flags 10 --log2 14 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run pairs_lg15 gpu -- --dtypes 1 --flags 10 --log2 15 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
# What bounds the version-2 encoder now (issue rate, eligible warps, stall reasons; no source page: this is
# the release build, not the lineinfo one).
NCU_TOOLS=gpu ncu_kernel compress_kernel 1048576 2 enc1g
pack; echo "(${SECONDS}s)"
