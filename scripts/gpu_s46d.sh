#!/usr/bin/env bash
# Session 46, one GPU: gpu_s46c's prefetch with evict_last (branch exp/s46-next-prefetch, UZIP_EXP_NEXT 5 = the next
# block's lines prefetched with prefetch.global.L2::evict_last, 6 = its first half), against modes 0 (main's
# tickets) and 2 (the plain prefetch); bf16 split 256 MiB / 1 GiB / 4 GiB, two rounds; ncu of one 1 GiB
# compression in modes 5 and 6. Carry [".carry-run"]; bench/results/ out of the tree for the call.
# (Its ncu step goes through device_env.sh's ncu_compress since the session's end: the same metrics and arguments.)
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
A=(-- --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
for r in 1 2; do
  for m in 0 2 5 6; do gpu_bench_run "next${m}_r$r" gpu UZIP_EXP_NEXT=$m "${A[@]}"; done
  pack; echo "(${SECONDS}s)"
done
for m in 5 6; do
  ncu_compress next$m UZIP_EXP_NEXT=$m -- --dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024
done
echo "(${SECONDS}s)"
