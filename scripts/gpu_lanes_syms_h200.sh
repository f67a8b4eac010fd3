#!/usr/bin/env bash
# Lane-stream encoder variants on one H200, one device call (session 15): variant 0 reads each block twice
# (the second pass from L2), variants 1 (default) and 2 stage the block's symbols in shared memory in the
# first pass (8 or 16 chunks in flight) so that the second pass reads no global memory
# (UZIP_GPU_LANES_ENC_VARIANT, cuda/gpu_codec.cu). gpu_check --lanes for each variant, then gpu_bench of
# the three against the interleaved split layout and a device-to-device copy in the same call, then
# compute-sanitizer of the default.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
# Settings: SIZES (KiB), DTYPES ("1 3 2 4"), LOG2S ("14 13"), VARIANTS ("0 1 2"), SAN (1).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
for v in ${VARIANTS:-0 1 2}; do
  q=--quick; [ "$v" = 1 ] && q=
  UZIP_GPU_LANES_ENC_VARIANT=$v timeout 200 .carry-run/gpu/gpu_check --lanes $q > "$R/check_lanes_v$v.log" 2>&1
  echo "gpu_check --lanes $q variant $v rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_lanes_v$v.log" | head -6
done
pack
SIZES=${SIZES:-16384,262144,1048576}
for d in ${DTYPES:-1 3 2 4}; do
  for lg in ${LOG2S:-14 13}; do
    for v in ${VARIANTS:-0 1 2}; do
      gpu_bench_run "lanes${lg}_v${v}_d$d" gpu UZIP_GPU_LANES_ENC_VARIANT=$v -- --dtypes $d --flags 6 --log2 $lg \
        --sizes-kib "$SIZES" --sms 0 --reps 10
    done
  done
  gpu_bench_run "split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib "$SIZES" --sms 0 --reps 10
  pack
done
if [ "${SAN:-1}" = 1 ]; then
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --lanes --tiny > "$R/san_$tool.log" 2>&1
    echo "compute-sanitizer $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -4
    pack
  done
fi
