#!/usr/bin/env bash
# Session 56, one GPU, the session's first call: gpu_s55e.sh and gpu_s55c.sh in one call, the benches first and
# a pack after every stage (a call cut short still returns what ran). new2/ = branch exp/s55-dec-fill (the decode
# table's batched slot rounds; the compact kernels' few-symbol tables symbol by symbol), new4/ = branch
# exp/s56-enc-loads: new2 plus the encoder's once-per-block shared loads before their stores (session 55's
# docs/experiments/enc-hoisted-table-loads.diff, and the sub-histogram fold's eight rows); gpu/ = main.
# 1. Two rounds (reversed) of bf16 split 64 KiB-64 MiB (20 calls back to back) and 256 MiB-1 GiB, main and new4
# (new4's decode kernels are new2's by cubin_compare, so its decompress columns are new2's and new2 need not run).
# 2. gpu_check --quick and --lean of new4 and memcheck of its --tiny: by scripts/cubin_compare.py new4's decode
# kernels are new2's and new2's encode kernels main's, so these cases run every kernel new2 has. 3. Two rounds of
# fp16 and fp32 split at 16 MiB-1 GiB, main and new4. 4. On an H200 only, main's owed fp32 rows. 5. Racecheck
# of new4's gpu_check --tiny --lean in what is left of END (580) s; 3 and 4 only with time left.
# Carry [".carry-run"] (gpu/, new4/ each a libuzip.so beside main's gpu_check and gpu_bench; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small_large_rounds fill "gpu new4"
pack; echo "(${SECONDS}s)"
variant_checks new4
pack; echo "(${SECONDS}s)"
END=${END:-580}  # the call's limit less ~20 s (a call given less device time passes END)
a=(--sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --max-mib 1024)
if [ "$SECONDS" -lt $((END - 200)) ]; then
  gpu_bench_rounds fp16 "gpu new4" --dtypes 2 --flags 2 "${a[@]}"
  gpu_bench_rounds fp32 "gpu new4" --dtypes 3 --flags 2 "${a[@]}"
  pack; echo "(${SECONDS}s)"
fi
fp32_main_h200 $((END - 160))
pack; echo "(${SECONDS}s)"
CHECK_DIR=new4 racecheck_parts "lean:120" "$END"
pack; echo "(${SECONDS}s)"
