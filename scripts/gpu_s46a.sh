#!/usr/bin/env bash
# Session 46, one GPU: what the encoder's second DRAM read of each block costs (branch exp/s46-l2-alias, built in
# gpu/). A block is read twice, by the histogram pass and ~60 us later by the coding pass, when the L2 no longer
# holds it (sessions 23-24: 2.11 GB read for 1 GiB in). UZIP_EXP_ALIAS=K,MODE sends block b's reads to block
# b % K: the coding pass's (MODE 1), the histogram pass's (2) or both (3). The data are 8 MiB of Gaussian bf16
# (256 blocks of 2^14) repeated, so that block b % K holds block b's bytes when K = 256 (the streams are the
# real ones: gpu_bench's round trip checks them) and the aliased reads hit an 8 MB region the L2 keeps.
# 1. bf16 split 256 MiB / 1 GiB / 4 GiB, whole chip, modes off / 1 / 2 / 3, two rounds. 2. ncu of one 1 GiB
# compression, off and MODE 1: DRAM bytes and throughput, issue activity, duration.
# Carry [".carry-run"] (gpu/ = the branch's build, data/gauss8m_bf16.bin.xz, deno.xz unused); bench/results/ out.
# (Its ncu step goes through device_env.sh's ncu_compress since the session's end: the same metrics and arguments.)
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
xz -dc .carry-run/data/gauss8m_bf16.bin.xz > /tmp/g8.bin
A=(-- --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096 --input /tmp/g8.bin)
for r in 1 2; do
  gpu_bench_run "off_r$r" gpu "${A[@]}"
  gpu_bench_run "code_r$r" gpu UZIP_EXP_ALIAS=256,1 "${A[@]}"
  gpu_bench_run "hist_r$r" gpu UZIP_EXP_ALIAS=256,2 "${A[@]}"
  gpu_bench_run "both_r$r" gpu UZIP_EXP_ALIAS=256,3 "${A[@]}"
  pack; echo "(${SECONDS}s)"
done
N=(--dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024 --input /tmp/g8.bin)
NCU_TIMEOUT=150 ncu_compress off UZIP_EXP_ALIAS=0,0 -- "${N[@]}"
NCU_TIMEOUT=150 ncu_compress 256_1 UZIP_EXP_ALIAS=256,1 -- "${N[@]}"
echo "(${SECONDS}s)"
