#!/usr/bin/env bash
# Session 52, one GPU: where the pair encoder's time goes after session 52's trims (gpu_s52a.sh measured them
# level). ncu --set full of one bf16 split 1 GiB compression (Gaussian, whole chip): the pair kernel of
# .carry-run/new2 (the trims) and of gpu/ (main), and main's byte kernel (flags 2) as the yardstick; the details
# page (issue, stall reasons, occupancy, instruction counts) and the SASS page with stall samples per
# instruction (csv, xz). Carry [".carry-run"] (gpu/, new2/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
# bf16 split 1 GiB, whole chip, one rep: ncu_full's gpu_bench arguments (FLAGS: 10 pairs, 2 bytes).
g() { echo --dtypes 1 --flags "$1" --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024; }
ncu_full pairs_new2 new2 pairs_compress_kernel $(g 10)
ncu_full pairs_main gpu pairs_compress_kernel $(g 10)
ncu_full bytes_main gpu "^compress_kernel" $(g 2)
echo "(${SECONDS}s)"
