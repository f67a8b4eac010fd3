#!/usr/bin/env bash
# Session 46, one GPU: gpu_s46b's loss taken apart (branch exp/s46-next-prefetch with UZIP_EXP_NEXT, built in gpu/):
# 0 tickets as main; 1 the next ticket taken once a block is published, no prefetch; 2 that and the next block
# prefetched to the L2 at a 128-byte stride (gpu_s46b's form); 3 at a 32-byte stride; 4 its first quarter at 32.
# bf16 split 256 MiB / 1 GiB / 4 GiB, whole chip, two rounds; ncu of one 1 GiB compression in modes 0, 1, 2 (DRAM
# bytes, L2 read hits, issue). Carry [".carry-run"]; bench/results/ out of the tree for the call.
# MODES and NCU_MODES (defaults "0 1 2 3 4" and "0 1 2") pick the modes; gpu_s46d.sh runs the evict_last ones.
# (Its ncu step goes through device_env.sh's ncu_compress since the session's end: the same metrics and arguments.)
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
A=(-- --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
for r in 1 2; do
  for m in ${MODES:-0 1 2 3 4}; do gpu_bench_run "next${m}_r$r" gpu UZIP_EXP_NEXT=$m "${A[@]}"; done
  pack; echo "(${SECONDS}s)"
done
for m in ${NCU_MODES:-0 1 2}; do
  ncu_compress next$m UZIP_EXP_NEXT=$m -- --dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
done
echo "(${SECONDS}s)"
