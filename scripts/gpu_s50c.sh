#!/usr/bin/env bash
# Session 50, one GPU of either kind: large fp32 decodes apart from the lean path (branch exp/s50-wide-apart,
# .carry-run/new2/) against main (gpu/). The wide kernel built without the byte kernels' out-of-line lean path,
# paired with the lean kernel as uzipGpuDecompressEither pairs them, from 1 GiB of destination
# (uzip_dec_wide_apart; UZIP_GPU_DEC_WIDE_APART=1 forces it wherever the wide kernel is chosen).
# 1. gpu_check --quick and --lean of new2 with the pair forced (every fp32-hinted decode takes it). 2. fp32 split
# 1 and 4 GiB, two rounds (the second in reverse order); fp32 default layout 1 GiB. 3. The pair forced at 64 and
# 256 MiB (where the rule's border goes). 4. A 1 GiB lean fp32 stream through the default entry (the pair path's
# lean kernel decodes it; gpu_bench checks the round trip).
# Carry [".carry-run"] (gpu/, new2/, deno.xz); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
CHECK_DIR=new2 check_run check_new2_apart 150 UZIP_GPU_DEC_WIDE_APART=1 -- --quick
CHECK_DIR=new2 check_run check_new2_apart_lean 90 UZIP_GPU_DEC_WIDE_APART=1 -- --lean
echo "(${SECONDS}s)"
a=(--dtypes 3 --flags 2 --sizes-kib "1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_rounds fp32_split "gpu new2" "${a[@]}"
gpu_bench_dirs fp32_default "gpu new2" --dtypes 3 --flags 0 --sizes-kib 1048576 --sms 0 --reps 10 --max-mib 1024
b=(--dtypes 3 --flags 2 --sizes-kib "65536 262144" --sms 0 --reps 10)
gpu_bench_run fp32_small_gpu gpu -- "${b[@]}"
gpu_bench_run fp32_small_new2_forced new2 UZIP_GPU_DEC_WIDE_APART=1 -- "${b[@]}"
gpu_bench_run fp32_small_new2 new2 -- "${b[@]}"
pack; echo "(${SECONDS}s)"
gpu_bench_run fp32_lean_default_entry new2 UZIP_BENCH_LEAN_DEFAULT=1 -- --dtypes 3 --flags 18 --sizes-kib 1048576 \
  --sms 0 --reps 5 --max-mib 1024
pack; echo "(${SECONDS}s)"
