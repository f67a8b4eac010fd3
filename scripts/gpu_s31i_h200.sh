#!/usr/bin/env bash
# Session 31, call 9: ncu (--set full, SASS source counters) of one pair compression, bf16 1 GiB, split layout,
# 2^14 blocks (call 8's build: shared loads out of conflict), and 2^15 blocks. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
NCU_TOOLS=gpu ncu_kernel pairs_compress 1048576 10 pairs1g_v4 --log2 14
NCU_TOOLS=gpu ncu_kernel pairs_compress 1048576 10 pairs1g_v4_l15 --log2 15
pack; echo "(${SECONDS}s)"
