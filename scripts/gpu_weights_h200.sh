#!/usr/bin/env bash
# One H200 call: why real weights code slower than synthetic data, and the one-round decoder rule.
#   1. gpu_bench on the recognition model's weights (gpu_bench --input) against Gaussian data, same build:
#      bf16 and fp32 (fp16, fp8e4m3 at 256 MiB), default and split layouts, 256 MiB and 1 GiB;
#   2. stage clocks (profiling build) on the same data at 256 MiB: where a block's cycles go, and the
#      slowest block of each kernel (a block far slower than the rest is the call's tail);
#   3. the decoder rule of choose_decoder (variant 3 for one round of blocks, dtype given): gpu_check,
#      with it in force, and gpu_bench auto against UZIP_GPU_DEC_VARIANT=0 at 16-128 MiB, full chip
#      and 64 SMs.
# Usage (device, after PACK_DENO=none PACK_PROF=1 PACK_WEIGHTS=data bash scripts/pack_device.sh here):
#   bash scripts/gpu_weights_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
id() { case $1 in 1) echo bf16 ;; 2) echo fp16 ;; 3) echo fp32 ;; 4) echo fp8e4m3 ;; esac; }
for d in 1 3; do
  for fl in 0 2; do
    gpu_bench_run "w_$(id $d)_f$fl" gpu -- --dtypes $d --flags $fl --sizes-kib 262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/weights_$(id $d).bin
    gpu_bench_run "g_$(id $d)_f$fl" gpu -- --dtypes $d --flags $fl --sizes-kib 262144,1048576 --sms 0 --reps 10
  done
done
for d in 2 4; do
  gpu_bench_run "w_$(id $d)_f0" gpu -- --dtypes $d --flags 0 --sizes-kib 262144 --sms 0 --reps 10 --input /tmp/wdata/weights_$(id $d).bin
  gpu_bench_run "g_$(id $d)_f0" gpu -- --dtypes $d --flags 0 --sizes-kib 262144 --sms 0 --reps 10
done
pack
for d in 1 3; do
  for fl in 0 2; do
    UZIP_STAGES_FLAGS=$fl UZIP_STAGES_FILE=/tmp/wdata/weights_$(id $d).bin timeout 90 .carry-run/prof/gpu_stages $d 262144 \
      > "$R/stages_w_$(id $d)_f$fl.txt" 2>&1
    UZIP_STAGES_FLAGS=$fl timeout 90 .carry-run/prof/gpu_stages $d 262144 > "$R/stages_g_$(id $d)_f$fl.txt" 2>&1
    echo "== stages $(id $d) flags $fl: weights | gaussian"
    paste "$R/stages_w_$(id $d)_f$fl.txt" "$R/stages_g_$(id $d)_f$fl.txt" | sed 's/cycles\/block//g' | tr -s ' ' | head -30
  done
done
pack
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check (decoder rule in force), rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -3
for r in 1 2; do
  gpu_bench_run "dec_auto_r$r" gpu -- --dtypes 1,2,4 --flags 2 --sizes-kib 16384,32768,65536,98304 --sms 0,64 --reps 10
  gpu_bench_run "dec_v0_r$r" gpu UZIP_GPU_DEC_VARIANT=0 -- --dtypes 1,2,4 --flags 2 --sizes-kib 16384,32768,65536,98304 --sms 0,64 --reps 10
done
pack
