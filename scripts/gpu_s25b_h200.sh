#!/usr/bin/env bash
# Session 25, call 2: ncu (full set, SASS source counters) of main's compact decoder, bf16 split 1 GiB and
# 256 MiB, to see what bounds a decoder warp (stall reasons, shared-memory wavefronts, issue). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
NCU_TOOLS=old ncu_kernel decompress_kernel 1048576 2 dec_1g
pack
echo "(${SECONDS}s)"
NCU_TOOLS=old ncu_kernel decompress_kernel 262144 2 dec_256m
pack
echo "(${SECONDS}s)"
