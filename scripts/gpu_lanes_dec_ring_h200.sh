#!/usr/bin/env bash
# The lane decoder reading each lane's words through a cp.async ring in shared memory (the default now)
# against the words from global memory two ahead (UZIP_GPU_LANES_DEC_VARIANT=1), one H200, one device call
# (session 15): gpu_check --lanes (every decode path and damaged stream) with each, memcheck and racecheck
# of the ring, then gpu_bench of lane streams with each decoder against the interleaved split layout, d2d
# copy in each call. Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry
# [".carry-run"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
check_run check_lanes 120 -- --lanes
check_run check_lanes_dec1 100 UZIP_GPU_LANES_DEC_VARIANT=1 -- --lanes --quick
for d in 1 3 2; do
  gpu_bench_run "lanes_ring_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  gpu_bench_run "lanes_old_d$d" gpu UZIP_GPU_LANES_DEC_VARIANT=1 -- --dtypes $d --flags 6 --log2 14 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  gpu_bench_run "split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
  pack
done
san_run 100 -- --lanes --tiny
