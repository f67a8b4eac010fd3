#!/usr/bin/env bash
# One H200 call: the remainder-plane margin (FORMAT.md "Choosing a mode" step 3, uzip_ans_est_limit) on
# real weights, the build with it (.carry-run/gpu) against the build before it (.carry-run/old), same call:
#   1. gpu_check (GPU bytes = CPU bytes under the new rule, every case);
#   2. gpu_bench on the recognition model's weights in the default layout (bf16, fp16, fp32; 64 MiB,
#      256 MiB, 1 GiB), new and old builds alternating, twice; the new build checks its 64 MiB stream
#      against the CPU codec's bytes (identicalToCpu); Gaussian data and the split layout as controls.
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh` here with the
# earlier build in .carry/old): bash scripts/gpu_margin_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL|remainder samples' "$R/check.log" | tail -4
pack
id() { case $1 in 1) echo bf16 ;; 2) echo fp16 ;; 3) echo fp32 ;; esac; }
for r in 1 2; do
  for d in 1 2 3; do
    for b in gpu old; do
      gpu_bench_run "w_$(id $d)_${b}_r$r" $b -- --dtypes $d --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 \
        --input /tmp/wdata/weights_$(id $d).bin
    done
  done
  pack
done
gpu_bench_run g_new gpu -- --dtypes 1,2,3 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10
gpu_bench_run g_old old -- --dtypes 1,2,3 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10
gpu_bench_run w_bf16_split gpu -- --dtypes 1 --flags 2 --sizes-kib 262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
pack
