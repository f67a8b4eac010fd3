#!/usr/bin/env bash
# Session 53, one GPU: the codec kernels' end without fence.sc. Every compress and decompress kernel ended each
# warp with __threadfence(); atomicAdd(done); __threadfence() (MEMBAR.SC.GPU: 3.3% of a one-round 16 MiB
# compression's stall samples sat on it, session 52's 4-stall-hunt). new1: one atom.acq_rel.gpu add instead;
# new2: new1 plus the look-back's backoff from 32 ns to at most 256 ns (main: 64 ns to 2 us). gpu/: main.
# 1. gpu_check --quick and --lean of new2 (it holds new1's change), memcheck of --tiny. 2. Two rounds
# (reversed) of split bf16 at 64 KiB-64 MiB (gpu_bench also times 20 calls back to back), then 256 MiB and
# 1 GiB; one round of fp32 split 1-16 MiB. 3. ncu of new1's 16 MiB compression. 4. On an H200 only: main's
# fp32 split rows (256 MiB-4 GiB), owed to the README since session 50.
# new1 is main with docs/experiments/end-count-acq-rel-every-warp.diff applied; new2 also changes lb_resolve's
# `sleep = 64` to 32 and its cap 2048u to 256u.
# Carry [".carry-run"] (gpu/, new1/, new2/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
variant_checks new2
pack; echo "(${SECONDS}s)"
small_large_rounds bf16 "gpu new1 new2"
gpu_bench_dirs fp32_small "gpu new1" --dtypes 3 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 20 --max-mib 64
pack; echo "(${SECONDS}s)"
ncu_full c16m_new1 new1 "^compress_kernel" --dtypes 1 --flags 2 --sizes-kib 16384 --sms 0 --reps 1 --max-mib 64
echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt"; then
  gpu_bench_rounds fp32_main gpu --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
fi
pack; echo "(${SECONDS}s)"
