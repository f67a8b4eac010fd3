#!/usr/bin/env bash
# Session 49, one GPU: is fp32 split decompression slower than in session 35 (H200, 1 GiB 594-603 us there,
# 621-622 us in session 49) because of the code or of the machine? old/ = main at 518ac42 (session 35's
# decoders; its encoder lacks the staged fp32 kernel, so its compress column is not main's before/after),
# gpu/ = main. fp32 split 1 and 4 GiB, two rounds (the second in reverse order), then bf16 split 256 MiB and
# 1 GiB as a control, one round each. Carry [".carry-run"] (gpu/, old/, deno.xz); bench/results/ out of the tree.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
a=(--dtypes 3 --flags 2 --sizes-kib "1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
gpu_bench_rounds fp32 "old gpu" "${a[@]}"
gpu_bench_dirs bf16 "old gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
pack; echo "(${SECONDS}s)"
