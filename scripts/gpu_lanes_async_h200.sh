#!/usr/bin/env bash
# Lane-stream encoder reading its block through a cp.async ring (UZIP_GPU_LANES_ENC_VARIANT 2: two reads, 3:
# staged symbols) against the register rings (0, 1), one H200, one device call (session 15). The SASS
# showed why a register ring cannot prefetch: its loads share one scoreboard barrier. gpu_check --lanes
# --quick of variants 2 and 3, gpu_bench of the four against the interleaved split layout and a d2d copy in
# the same call, compute-sanitizer memcheck and racecheck of variants 2 and 3.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
# Settings: SIZES (KiB), DTYPES ("1 3 4 2"), LOG2S ("14 13"), VARIANTS ("0 1 2 3").
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt"
for v in 2 3; do
  UZIP_GPU_LANES_ENC_VARIANT=$v timeout 100 .carry-run/gpu/gpu_check --lanes --quick > "$R/check_lanes_v$v.log" 2>&1
  echo "gpu_check --lanes --quick variant $v rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/check_lanes_v$v.log" | head -4
done
pack
SIZES=${SIZES:-262144,1048576}
for d in ${DTYPES:-1 3 4 2}; do
  for lg in ${LOG2S:-14 13}; do
    for v in ${VARIANTS:-0 1 2 3}; do
      gpu_bench_run "lanes${lg}_v${v}_d$d" gpu UZIP_GPU_LANES_ENC_VARIANT=$v -- --dtypes $d --flags 6 --log2 $lg \
        --sizes-kib "$SIZES" --sms 0 --reps 10
    done
  done
  gpu_bench_run "split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib "$SIZES" --sms 0 --reps 10
  pack
done
for v in 2 3; do
  for tool in memcheck racecheck; do
    UZIP_GPU_LANES_ENC_VARIANT=$v timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --lanes --tiny > "$R/san_${tool}_v$v.log" 2>&1
    echo "compute-sanitizer $tool variant $v rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_${tool}_v$v.log" | head -3
  done
  pack
done
# The SASS (with control codes) of the interleaved default kernels and the lane kernels, for the scoreboard
# barriers their loads use (scripts/sass_barriers.py reads them).
for k in _ZN8uzip_gpu15compress_kernelILi2ELi8ELi4EEEv9EncParams _ZN8uzip_gpu17decompress_kernelILi8ELi5ELb1ELb0ELb0EEEv9DecParams \
  _ZN8uzip_gpu21lanes_compress_kernelILi2ELi4ELi5ELb0ELi8ELi6EEEv9EncParams _ZN8uzip_gpu17decompress_kernelILi8ELi6ELb0ELb0ELb1EEEv9DecParams; do
  cuobjdump -sass -fun "$k" .carry-run/gpu/libuzip.so 2>&1 | xz -T4 > "$R/sass_$k.txt.xz"
done
pack
