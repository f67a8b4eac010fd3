#!/usr/bin/env bash
# One H200 call at the session's last codec commit: scripts/gpu_sim.sh (the collectives' GPU simulation,
# the TS device suite, gpu_check), then gpu_bench at 1 GiB / 256 MiB / 16 MiB / 1 MiB for bf16, fp16, fp32
# (default layout) and bf16 split, for the notes' table. Usage (device, after `PACK_WEIGHTS=none bash
# scripts/pack_device.sh` here with .carry-run/old and gpu/gpu_fuse_bench removed for the carry limit):
# SIM_TIMEOUT=300 bash scripts/gpu_final13_h200.sh
set -u
bash scripts/gpu_sim.sh
source scripts/device_env.sh
gpu_bench_run final_default gpu -- --dtypes 1,2,3 --flags 0 --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
gpu_bench_run final_split gpu -- --dtypes 1 --flags 2 --sizes-kib 1024,16384,262144,1048576 --sms 0 --reps 10
pack
