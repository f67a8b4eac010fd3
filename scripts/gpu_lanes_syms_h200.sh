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
  check_run "check_lanes_v$v" 200 UZIP_GPU_LANES_ENC_VARIANT=$v -- --lanes $q
done
SIZES=${SIZES:-16384,262144,1048576}
lanes_enc_sweep "${DTYPES:-1 3 2 4}" "${LOG2S:-14 13}" "${VARIANTS:-0 1 2}" "$SIZES"
if [ "${SAN:-1}" = 1 ]; then san_run 150 -- --lanes --tiny; fi
