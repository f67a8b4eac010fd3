#!/usr/bin/env bash
# Session 52, one GPU (an H200 named; an H100 came): the pair encoder's two trims (.carry-run/new1/: the CONST
# test from the histogram instead of a min and a max an element in pass A; one escape vote a group of 8 steps
# instead of one a step), and new2/ (also the byte encoder's group in the groups without escapes, the chain in
# PTX and one predicated store a word; new2 is docs/experiments/pairs-enc-const-from-hist-group-escape-vote.diff
# on 1fff481, new1 the same without its enc_step hunk) against main (gpu/), and main's rows that the README
# still owes an H200.
# 1. The variant's pair streams: gpu_check --pairs --quick (GPU bytes against the CPU codec's), memcheck and
#    racecheck of --pairs --tiny. 2. Pair compression, bf16 split 256 MiB-4 GiB, then 256 MiB and 1 GiB again in reverse
#    order, with main's byte coding in the same round as the yardstick; fp32 pairs one round; real bf16 weights
#    (gpu_bench --input: streams compared with the CPU codec's). 3. main: bf16 split 1 MiB-4 GiB
#    and fp32 split 256 MiB-4 GiB, the README's table. 4. cuobjdump / nvdisasm for reading SASS here.
# Carry [".carry-run"] (gpu/, new1/, new2/, weights/weights_bf16.bin.xz; tools and libraries xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
sass_tools_out
CHECK_DIR=new1 check_run check_pairs_new1 200 -- --pairs --quick
CHECK_DIR=new2 check_run check_pairs_new2 200 -- --pairs --quick
CHECK_DIR=new2 SAN_SUFFIX=new2 san_run 150 -- --pairs --tiny
echo "(${SECONDS}s)"
p=(--sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_dirs pairs_bf16_r1 "gpu new1 new2" --dtypes 1 --flags 10 "${p[@]}"
gpu_bench_run bytes_bf16_r1 gpu -- --dtypes 1 --flags 2 "${p[@]}"
pack; echo "(${SECONDS}s)"
gpu_bench_dirs pairs_bf16_r2 "new2 new1 gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
pack; echo "(${SECONDS}s)"
pairs_fp32_real "gpu new1 new2"
pack; echo "(${SECONDS}s)"
gpu_bench_run main_bf16_r1 gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
gpu_bench_run main_fp32 gpu -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
pack; echo "(${SECONDS}s)"
