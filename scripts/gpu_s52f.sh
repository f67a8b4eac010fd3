#!/usr/bin/env bash
# Session 52, one GPU: where main's pair encoder spends its time on real bf16 weights (0.769 TB/s at 1 GiB against
# 0.838 on Gaussian data, while byte coding loses 4%: 3-pairs-copy), whose blocks escape far more often: ncu_full of
# one 1 GiB compression of the weights (gpu_bench --input), pairs and bytes. Carry [".carry-run"] (gpu/: main's
# build; weights/weights_bf16.bin.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
w=(--dtypes 1 --input /tmp/wdata/weights_bf16.bin --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024)
ncu_full pairs_real gpu pairs_compress_kernel --flags 10 "${w[@]}"
ncu_full bytes_real gpu "^compress_kernel" --flags 2 "${w[@]}"
echo "(${SECONDS}s)"
