#!/usr/bin/env bash
# Lane streams (FORMAT.md "Lane streams") on one H200, in one device call: gpu_check --lanes (GPU bytes ==
# CPU bytes, every decode path, damaged streams, SM budgets, occupied SMs), then gpu_bench of lane streams
# against the interleaved coding in the split layout (flags 2, the layout P2P uses) and a device-to-device
# copy in the same call, whole chip; real weights too; then gpu_check --quick (the interleaved paths).
# (Until 1172225 lane streams also decoded in decompress_kernel, and UZIP_GPU_LANES_DEC=1 chose the
# lanes-only kernel, the "lanesdec" runs of the results; now uzipGpuDecompressLanes always takes it.)
# Pack: PACK_DENO=none PACK_WEIGHTS=data bash scripts/pack_device.sh; run with carry [".carry-run"].
# Settings: SIZES (KiB), ROUNDS, DTYPES ("1 3 2 4"), LOG2S (lane block sizes, "14 13"), CHECK ("--lanes";
# "--lanes --quick"; "" skips it), WEIGHTS (1), FINAL_CHECK (1), SAN (1: compute-sanitizer memcheck and racecheck of gpu_check --lanes --tiny).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
CHECK=${CHECK---lanes}
if [ -n "$CHECK" ]; then
  timeout 300 .carry-run/gpu/gpu_check $CHECK > "$R/check_lanes.log" 2>&1
  echo "gpu_check $CHECK rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_lanes.log" | head -12
  pack
fi
SIZES=${SIZES:-1024,16384,65536,262144,1048576}
for round in $(seq 1 "${ROUNDS:-1}"); do
  for d in ${DTYPES:-1 3 2 4}; do
    for lg in ${LOG2S:-14 13}; do
      gpu_bench_run "r${round}_lanes${lg}_d$d" gpu -- --dtypes $d --flags 6 --log2 $lg --sizes-kib "$SIZES" --sms 0 --reps 10
    done
    gpu_bench_run "r${round}_split_d$d" gpu -- --dtypes $d --flags 2 --log2 14 --sizes-kib "$SIZES" --sms 0 --reps 10
  done
  pack
done
if [ "${WEIGHTS:-1}" = 1 ]; then
  for d in bf16:1 fp32:3 fp16:2 fp8e4m3:4; do
    f=/tmp/wdata/weights_${d%%:*}.bin
    [ -f "$f" ] || continue
    gpu_bench_run "weights_lanes_${d%%:*}" gpu -- --dtypes ${d##*:} --flags 6 --log2 14 --sizes-kib 16384,262144 --sms 0 --reps 10 --input "$f"
    gpu_bench_run "weights_split_${d%%:*}" gpu -- --dtypes ${d##*:} --flags 2 --log2 14 --sizes-kib 16384,262144 --sms 0 --reps 10 --input "$f"
  done
  pack
fi
if [ "${SAN:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --lanes --tiny > "$R/san_$tool.log" 2>&1
    echo "compute-sanitizer $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -4
  done
  pack
fi
if [ "${FINAL_CHECK:-1}" = 1 ]; then
  timeout 240 .carry-run/gpu/gpu_check --quick > "$R/check_quick.log" 2>&1
  echo "gpu_check --quick rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/check_quick.log" | head -12
  pack
fi
