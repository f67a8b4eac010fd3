#!/usr/bin/env bash
# Session 55 (prepared; the next session's first call): the merge candidate new2/ (branch exp/s55-dec-fill: batched
# slot rounds for every decode table of at most 192 symbols, the compact kernels' few-symbol tables symbol by
# symbol as in main) against main (gpu/). 1. gpu_check --quick and --lean of new2, memcheck of --tiny (the gate).
# 2. Two rounds (reversed) of bf16 split 64 KiB-64 MiB (20 calls back to back) and 256 MiB-1 GiB: whether the
# compact kernel's 1 GiB is main's again while the small calls keep 2-dec-fill's gain.
# Carry [".carry-run"] (gpu/, new2/ with main's gpu_check and gpu_bench; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
variant_checks new2
echo "(${SECONDS}s)"
small_large_rounds fill "gpu new2"
pack; echo "(${SECONDS}s)"
