#!/usr/bin/env bash
# Session 52, one GPU: the byte decoders' out-of-line lean path computing gated and byIndex itself instead of
# taking them from the kernel, which kept them in local memory (4-stall-hunt: the load before the call held the
# 1 MiB decode's warps for 12.9% of its stall samples). .carry-run/new5: that change on main; gpu/: main.
# 1. gpu_check --quick and --lean of new5. 2. Two rounds (reversed) of split bf16 at 64 KiB-16 MiB (the lean
# default's range; gpu_bench also times 20 calls back to back) and 64 MiB (the byte path of the same kernels), one
# of fp32 at 64 KiB-16 MiB. 3. ncu of new5's 1 MiB decode.
# Carry [".carry-run"] (gpu/, new5/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=new5 check_run check_new5 200 -- --quick
CHECK_DIR=new5 check_run check_lean_new5 200 -- --lean
pack; echo "(${SECONDS}s)"
gpu_bench_rounds bf16_small "gpu new5" --dtypes 1 --flags 2 --sizes-kib "64 1024 4096 16384 65536" --sms 0 --reps 20 --max-mib 64
gpu_bench_dirs fp32_small "gpu new5" --dtypes 3 --flags 2 --sizes-kib "64 1024 16384" --sms 0 --reps 20 --max-mib 64
ncu_full d1m_new5 new5 "^decompress_kernel" --dtypes 1 --flags 2 --sizes-kib 1024 --sms 0 --reps 1 --max-mib 64
pack; echo "(${SECONDS}s)"
