#!/usr/bin/env bash
# One H200 call: L2 prefetches in the codec kernels (UZIP_GPU_PREFETCH bits, cuda/gpu_types.cuh:
# 1 compress: the next block's input; 2 decompress: the next block's stream bytes; 4 decompress: the
# block's own bytes at its start), same call, against the build before them (.carry-run/old):
#   1. gpu_check with every prefetch on (the ticket-ahead loops of both kernels), and with none;
#   2. gpu_bench, bf16 and fp32 Gaussian, default layout, 16 MiB / 256 MiB / 1 GiB, per prefetch set and
#      the old build, then again for sets 0, 1 and 3; the split layout and bf16 weights for the best sets.
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh` here with the
# earlier build in .carry/old): bash scripts/gpu_prefetch_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
UZIP_GPU_PREFETCH=7 timeout 200 .carry-run/gpu/gpu_check > "$R/check_pf7.log" 2>&1
echo "== gpu_check pf7 rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check_pf7.log" | tail -3
UZIP_GPU_PREFETCH=0 timeout 200 .carry-run/gpu/gpu_check > "$R/check_pf0.log" 2>&1
echo "== gpu_check pf0 rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check_pf0.log" | tail -3
pack
S=16384,262144,1048576
for r in 1 2; do
  gpu_bench_run "g_old_r$r" old -- --dtypes 1,3 --flags 0 --sizes-kib $S --sms 0 --reps 10
  sets="0 1 2 4 3 5"; [ $r = 2 ] && sets="0 1 3"
  for pf in $sets; do
    gpu_bench_run "g_pf${pf}_r$r" gpu UZIP_GPU_PREFETCH=$pf -- --dtypes 1,3 --flags 0 --sizes-kib $S --sms 0 --reps 10
  done
  pack
done
for pf in 0 1 3; do
  gpu_bench_run "split_pf$pf" gpu UZIP_GPU_PREFETCH=$pf -- --dtypes 1 --flags 2 --sizes-kib $S --sms 0 --reps 10
  gpu_bench_run "w_bf16_pf$pf" gpu UZIP_GPU_PREFETCH=$pf -- --dtypes 1 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10 \
    --input /tmp/wdata/weights_bf16.bin
done
gpu_bench_run split_old old -- --dtypes 1 --flags 2 --sizes-kib $S --sms 0 --reps 10
pack
