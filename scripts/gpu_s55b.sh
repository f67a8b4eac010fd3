#!/usr/bin/env bash
# Session 55, one GPU: the decoder's table fill by batched slot rounds (new1/, branch exp/s55-dec-fill) against
# main (gpu/). load_ans_table filled tables of at most 64 symbols (bf16, fp32 exponents) symbol by symbol (~300
# cycles a symbol, session 38's stage clocks: 4.9-6.6k of a lone warp's ~30k-cycle block) and tables of 65-192
# symbols (fp16, fp8) in 64 slot rounds whose loads the compiler kept behind the last round's table store (one
# dependent chain); new1 fills every table of at most 192 symbols by slot rounds, eight at a time, their loads
# (two 16-byte bitmap broadcasts, eight entries) before their stores.
# 1. Two rounds (reversed) of bf16 split 64 KiB-64 MiB (20 calls back to back) and 256 MiB-1 GiB. 2. Two rounds of
# fp16 split, fp8, bf16 default layout and fp32 split at 1, 16 and 256 MiB. 3. gpu_check --quick and --lean of
# new1, memcheck of --tiny. 4. On an H200 with time left: main's fp32 split rows 256 MiB-4 GiB.
# Carry [".carry-run"] (gpu/ = main at 470fd1f's device code, new1/ = the variant's libuzip.so beside main's
# gpu_check and gpu_bench, the commit file; Deno not needed).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small_large_rounds dec "gpu new1"
a=(--sizes-kib "1024 16384 262144" --sms 0 --reps 10 --max-mib 256)
gpu_bench_rounds fp16 "gpu new1" --dtypes 2 --flags 2 "${a[@]}"
gpu_bench_rounds fp8 "gpu new1" --dtypes 4 --flags 0 "${a[@]}"
gpu_bench_rounds bf16def "gpu new1" --dtypes 1 --flags 0 "${a[@]}"
gpu_bench_rounds fp32 "gpu new1" --dtypes 3 --flags 2 "${a[@]}"
variant_checks new1
pack; echo "(${SECONDS}s)"
fp32_main_h200 420
pack; echo "(${SECONDS}s)"
