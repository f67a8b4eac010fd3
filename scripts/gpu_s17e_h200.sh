#!/usr/bin/env bash
# Session 17, fifth call: the encoder's table-entry and histogram addresses as mask + LEA.HI (add_shr in
# cuda/gpu_bits.cuh) against new1/ (the 2bb9bfd build, main after 4-rem-bytes) and, bf16 once, old/
# (eaa640a, main at the session's start): gpu_check --quick, memcheck and racecheck of --tiny, then the
# split layout for bf16 (twice) and fp32, and the bf16 default layout (fp16 and fp8 left out: device time).
# Pack: .carry/old = eaa640a, .carry/new1 = the 2bb9bfd build; PACK_DENO=none PACK_WEIGHTS=none
# bash scripts/pack_device.sh, then new1's gpu_bench, gpu_check and libuzip.so copied to .carry-run/new1;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
quick_checks
bf16_split_rounds
gpu_bench_dirs r1_d3_f2 "new1 gpu" --dtypes 3 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "new1 gpu" --dtypes 1 --flags 0 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
