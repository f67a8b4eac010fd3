#!/usr/bin/env bash
# Session 21, call 1 (branch exp/s20-dec-rule): (1) the rule against main (old/) in the same call, decompress
# median of 10: bf16 split 32 MiB - 4 GiB (the one-round kernel's border is near 64 MiB), fp16 and fp8 at
# 256 MiB and 1 GiB, bf16 under 32 and 64 SMs (variant 4 forced against old); (2) gpu_check --quick with the
# library's choice (which now takes variant 4 for hinted one- and two-byte decodes beyond one round);
# (3) racecheck of gpu_check --tiny with decoder variant 4 forced (session 20's ran out of time; its memcheck
# was clean), last, with the rest of the call's time. Benches first, on an otherwise idle GPU.
# Pack: .carry/old = main's gpu_check, gpu_bench, libuzip.so; PACK_DENO=none PACK_WEIGHTS=none
# bash scripts/pack_device.sh; libuzip.so of gpu/ and old/ xz'd in place (xz -T2 -3), old/gpu_check and
# gpu/gpu_fuse_bench removed; run with carry [".carry-run"] and timeout_s 600.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "32768 65536 131072 262144 1048576 4194304" --sms 0 --reps 10
pack
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
# Under budgets the rule keeps the default (it needs half the chip): variant 4 forced there, against old.
gpu_bench_dirs r1_d1_f2_sms "old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 32,64 --reps 10
gpu_bench_run r1_d1_f2_sms_dec4 gpu UZIP_GPU_DEC_VARIANT=4 -- --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 32,64 --reps 10
pack
echo "(${SECONDS}s)"
check_run check 200 -- --quick
echo "(${SECONDS}s)"
SAN_TOOLS=racecheck SAN_SUFFIX=dec4 san_run $((575 - SECONDS)) UZIP_GPU_DEC_VARIANT=4 -- --tiny
echo "(${SECONDS}s)"
