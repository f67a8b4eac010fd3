#!/usr/bin/env bash
# Session 51, one GPU of either kind: integer shifts moved from the ALU pipe to the FMA pipe (branch exp/s51-fma,
# built with -DUZIP_EXP_FMA=7 as .carry-run/new1/) against main (gpu/). ptxas turns a multiply-high by a power of two
# into LEA.HI / SHF (ALU, which a warp's integer instructions share at half rate); with the multiplier read from
# constant memory it keeps IMAD.HI: the encoder's table address and shed shift (bit 1), its histogram counters'
# addresses (bit 2), the decoder's two entry fields (bit 4). SASS of the bf16 coding loop: ALU-pipe instructions
# 211 -> 179 per 16 steps, 379 -> 385 in all; the compact decoder's step loop 2 fewer shifts a step.
# 1. bf16 split 16 MiB-1 GiB, two rounds (the second in reverse order). 2. gpu_check --quick of new1 (bytes must
# not change). 3. One round of fp32 / fp16 split, fp8 and bf16 default layout. 4. What session 50 left for an
# H200 (scripts/gpu_s50d.sh's items on main's build): the TypeScript GPU suites, memcheck of gpu_check --tiny with
# the wide-apart pair forced, fp32 split 4 GiB (its 256 MiB and 1 GiB are step 3's main rows).
# Carry [".carry-run"] (gpu/, new1/, deno.xz); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
bf16_split_ab_rounds "gpu new1"
CHECK_DIR=new1 check_run check_new1 150 -- --quick
echo "(${SECONDS}s)"
a=(--sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024)
gpu_bench_dirs fp32_split "gpu new1" --dtypes 3 --flags 2 "${a[@]}"
gpu_bench_dirs fp16_split "gpu new1" --dtypes 2 --flags 2 "${a[@]}"
gpu_bench_dirs fp8 "gpu new1" --dtypes 4 --flags 0 "${a[@]}"
gpu_bench_dirs bf16_default "gpu new1" --dtypes 1 --flags 0 "${a[@]}"
pack; echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
SAN_TOOLS=memcheck SAN_SUFFIX=apart san_run 150 UZIP_GPU_DEC_WIDE_APART=1 -- --tiny
echo "(${SECONDS}s)"
gpu_bench_run fp32_split_4g gpu -- --dtypes 3 --flags 2 --sizes-kib 4194304 --sms 0 --reps 10 --max-mib 4096
pack; echo "(${SECONDS}s)"
