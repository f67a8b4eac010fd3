#!/usr/bin/env bash
# Session 17, third call: the encoder's chain step in PTX without its store, the decoder's join as one select
# per word, with the decoder step of 2-ptx-steps: gpu_check --quick, memcheck and racecheck of --tiny, then
# old/ (eaa640a, main at the session's start), new1/ (5a539d1, 2-ptx-steps' build) and this build in one
# call: split layout bf16 and fp32 twice (1 MiB - 1 GiB), fp16 and fp8 once, bf16 default layout once.
# Pack: .carry/old = eaa640a, .carry/new1 = 5a539d1; PACK_DENO=none PACK_WEIGHTS=none
# bash scripts/pack_device.sh, then new1's gpu_bench, gpu_check and libuzip.so copied to .carry-run/new1;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
quick_checks
for rnd in 1 2; do
  for d in 1 3; do gpu_bench_dirs "r${rnd}_d${d}_f2" "old new1 gpu" --dtypes $d --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10; done
  pack
done
for d in 2 4; do gpu_bench_dirs "r1_d${d}_f2" "old new1 gpu" --dtypes $d --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10; done
gpu_bench_dirs "r1_d1_f0" "old new1 gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
