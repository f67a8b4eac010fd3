#!/usr/bin/env bash
# Session 31, call 1: how fast could a pair coding of bf16's exponent plane run? A proxy with main's kernels
# (no new code): the pair-code plane of bf16 data (one byte per two elements, each nibble a code of the
# block's 15 most frequent exponents, 15 for any other; made on the build machine by scripts/pair_proxy_data.py,
# carried in .carry-run/proxy) compressed as fp8 e4m3 (every byte entropy-coded, 2^13 pair blocks = 2^14
# bf16 elements), against bf16 split compression of the same kind of data at 2^14 in the same call.
# The proxy codes half as many symbols of ~5.1 bits instead of 2.6; it does not split remainders.
# Carry [".carry-run"] (gpu/ tools and library xz, weights/, proxy/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for f in .carry-run/proxy/*.bin.xz; do xz -dc "$f" > "/tmp/wdata/$(basename "$f" .xz)"; done
for r in 1 2; do
  gpu_bench_run "r${r}_bf16_l14" gpu -- --dtypes 1 --flags 2 --log2 14 \
    --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
  gpu_bench_run "r${r}_pairs_l13" gpu -- --dtypes 4 --flags 2 --log2 13 --input /tmp/wdata/gauss_pairs.bin \
    --sizes-kib "8192 131072 524288 2097152" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_run "small_bf16_l13" gpu -- --dtypes 1 --flags 2 --log2 13 --sizes-kib "1024 16384" --sms 0 --reps 20
gpu_bench_run "small_pairs_l12" gpu -- --dtypes 4 --flags 2 --log2 12 --input /tmp/wdata/gauss_pairs.bin \
  --sizes-kib "512 8192" --sms 0 --reps 20
gpu_bench_run "w_bf16_l14" gpu -- --dtypes 1 --flags 2 --log2 14 --input /tmp/wdata/weights_bf16.bin \
  --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run "w_pairs_l13" gpu -- --dtypes 4 --flags 2 --log2 13 --input /tmp/wdata/w_pairs.bin \
  --sizes-kib "131072 524288" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
