#!/usr/bin/env bash
# Session 31, call 7: ncu (--set full, SASS source counters) of one pair compression, bf16 1 GiB, split layout,
# 2^14 blocks (call 6's build: rings, deferred look-back). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
NCU_TOOLS=gpu ncu_kernel pairs_compress 1048576 10 pairs1g_v3 --log2 14
pack; echo "(${SECONDS}s)"
