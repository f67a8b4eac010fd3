#!/usr/bin/env bash
# Session 15's last build on one H200: gpu_check --lanes with the new default lane encoders (the cp.async
# ring: variant 2, fp8 variant 3), variant 4 (ring of 4 chunks, 24 warps per SM) against the default for
# bf16 and fp32, then lane streams against the interleaved split layout for every dtype from 1 MiB to 1 GiB
# (d2d copy in each call). Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with
# carry [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
check_run check_lanes 150 -- --lanes
check_run check_lanes_v4 100 UZIP_GPU_LANES_ENC_VARIANT=4 -- --lanes --quick
for d in 1 3; do
  gpu_bench_run "ring_default_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
  gpu_bench_run "ring_v4_d$d" gpu UZIP_GPU_LANES_ENC_VARIANT=4 -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
done
pack
for d in 1 3 2 4; do
  gpu_bench_run "sweep_lanes_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
  gpu_bench_run "sweep_split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
  pack
done
