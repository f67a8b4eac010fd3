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
for v in 2 3; do check_run "check_lanes_v$v" 100 UZIP_GPU_LANES_ENC_VARIANT=$v -- --lanes --quick; done
SIZES=${SIZES:-262144,1048576}
lanes_enc_sweep "${DTYPES:-1 3 4 2}" "${LOG2S:-14 13}" "${VARIANTS:-0 1 2 3}" "$SIZES"
for v in 2 3; do SAN_SUFFIX=v$v san_run 100 UZIP_GPU_LANES_ENC_VARIANT=$v -- --lanes --tiny; done
# The SASS (with control codes) of the interleaved default kernels and the lane kernels, for the scoreboard
# barriers their loads use (scripts/sass_barriers.py reads them).
for k in _ZN8uzip_gpu15compress_kernelILi2ELi8ELi4EEEv9EncParams _ZN8uzip_gpu17decompress_kernelILi8ELi5ELb1ELb0ELb0EEEv9DecParams \
  _ZN8uzip_gpu21lanes_compress_kernelILi2ELi4ELi5ELb0ELi8ELi6EEEv9EncParams _ZN8uzip_gpu17decompress_kernelILi8ELi6ELb0ELb0ELb1EEEv9DecParams; do
  cuobjdump -sass -fun "$k" .carry-run/gpu/libuzip.so 2>&1 | xz -T4 > "$R/sass_$k.txt.xz"
done
pack
