#!/usr/bin/env bash
# Lane streams (FORMAT.md "Lane streams") on one H200, in one device call: gpu_check --lanes (GPU bytes ==
# CPU bytes, every decode path, damaged streams, SM budgets, occupied SMs), then gpu_bench of lane streams
# against the interleaved coding in the split layout (flags 2, the layout P2P uses) and a device-to-device
# copy in the same call, whole chip, 2^14-element blocks; real weights too; then gpu_check --quick (the
# interleaved paths, whose decoder now also dispatches lane blocks).
# Pack: PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh; run with carry [".carry-run"].
# SIZES (KiB) and ROUNDS override the defaults.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
timeout 300 .carry-run/gpu/gpu_check --lanes > "$R/check_lanes.log" 2>&1
echo "gpu_check --lanes rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED|corrupt" "$R/check_lanes.log" | head -24
pack
SIZES=${SIZES:-1024,16384,65536,262144,1048576}
for round in $(seq 1 "${ROUNDS:-1}"); do
  for d in 1 3 2 4; do
    gpu_bench_run "r${round}_lanes_d$d" gpu -- --dtypes $d --flags 6 --log2 14 --sizes-kib "$SIZES" --sms 0 --reps 10
    gpu_bench_run "r${round}_split_d$d" gpu -- --dtypes $d --flags 2 --log2 14 --sizes-kib "$SIZES" --sms 0 --reps 10
  done
  gpu_bench_run "r${round}_lanesdec_d1" gpu UZIP_GPU_LANES_DEC=1 -- --dtypes 1 --flags 6 --log2 14 --sizes-kib "$SIZES" --sms 0 --reps 10
  gpu_bench_run "r${round}_lanes13_d1" gpu -- --dtypes 1 --flags 6 --log2 13 --sizes-kib "$SIZES" --sms 0 --reps 10
  pack
done
for d in bf16:1 fp32:3 fp16:2 fp8e4m3:4; do
  f=/tmp/wdata/weights_${d%%:*}.bin
  [ -f "$f" ] || continue
  gpu_bench_run "weights_lanes_${d%%:*}" gpu -- --dtypes ${d##*:} --flags 6 --log2 14 --sizes-kib 16384,262144 --sms 0 --reps 10 --input "$f"
  gpu_bench_run "weights_split_${d%%:*}" gpu -- --dtypes ${d##*:} --flags 2 --log2 14 --sizes-kib 16384,262144 --sms 0 --reps 10 --input "$f"
done
pack
timeout 240 .carry-run/gpu/gpu_check --quick > "$R/check_quick.log" 2>&1
echo "gpu_check --quick rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/check_quick.log" | head -12
pack
