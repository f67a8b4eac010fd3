#!/usr/bin/env bash
# Session 17, second call: the PTX chain steps (decoder vector path, encoder full groups) checked and measured
# against main's build (old/ = eaa640a, the kernels of 893db68) in the same call: gpu_check --quick, memcheck
# and racecheck of gpu_check --tiny (the decoder now loads a word on every lane), then the interleaved codec,
# both layouts, four dtypes, 1 MiB to 1 GiB, old then new, twice; ncu of the new bf16 256 MiB calls.
# Pack: .carry/old = the eaa640a build; PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
quick_checks
for rnd in 1 2; do
  for d in 1 3; do
    gpu_bench_ab "r${rnd}_%s_d${d}_f2" -- --dtypes $d --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  done
  pack
done
for d in 2 4; do gpu_bench_ab "r1_%s_d${d}_f2" -- --dtypes $d --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10; done
gpu_bench_ab "r1_%s_d1_f0" -- --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
export NCU_TOOLS=gpu
ncu_kernel compress_kernel 262144 2 enc_split; pack
ncu_kernel decompress_kernel 262144 2 dec_split; pack
echo "(${SECONDS}s)"
