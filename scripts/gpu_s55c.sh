#!/usr/bin/env bash
# Session 55, one GPU: the decoder's table fill as merged (new2/, branch exp/s55-dec-fill): batched slot rounds for
# every table of at most 192 symbols, except that the compact kernels (calls of many rounds) keep few-symbol
# tables (k <= 64) symbol by symbol, where 2-dec-fill's new1 decoded bf16 split 1 GiB 2.3% slower; and new3/ = new2
# plus the encoder's once-per-block loads hoisted above its stores (build_enc_table's eight rows of frequencies,
# warp_normalize's counts: docs/experiments/enc-hoisted-table-loads.diff). Against main (gpu/).
# 1. Two rounds (reversed) of bf16 split 64 KiB-64 MiB (20 calls back to back) and 256 MiB-1 GiB, the three builds.
# 2. gpu_check --quick and --lean of new3, memcheck of --tiny (new3's decode kernels are new2's and new2's encode
# kernels main's, by scripts/cubin_compare.py). 3. Two rounds of fp16 and fp32 split at 16 MiB-1 GiB, main and
# new3. 4. Racecheck of new3's gpu_check --tiny --lean (the table fill's shared accesses changed), within the
# call's 600 s. Carry [".carry-run"] (gpu/, new2/, new3/ each a libuzip.so beside main's gpu_check and gpu_bench; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small_large_rounds fill "gpu new2 new3"
variant_checks new3
echo "(${SECONDS}s)"
a=(--sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --max-mib 1024)
gpu_bench_rounds fp16 "gpu new3" --dtypes 2 --flags 2 "${a[@]}"
gpu_bench_rounds fp32 "gpu new3" --dtypes 3 --flags 2 "${a[@]}"
CHECK_DIR=new3 racecheck_parts "lean:120" 580
pack; echo "(${SECONDS}s)"
