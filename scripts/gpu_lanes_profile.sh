#!/usr/bin/env bash
# ncu profiles (--set full, SASS source counters) of the lane-stream kernels on one H200: one bf16 call of
# 256 MiB of lanes_compress_kernel and of decompress_kernel<..., LANES>, 2^14 blocks (ncu_kernel of
# device_env.sh on the build in .carry-run/gpu). Pack as for gpu_lanes_h200.sh; run with carry
# [".carry-run"]. KIB, LOG2 override the size and block.
set -u
source scripts/device_env.sh
for k in lanes_compress decompress_kernel; do
  NCU_TOOLS=gpu ncu_kernel "$k" "${KIB:-262144}" 6 "$k" --log2 "${LOG2:-14}"
  pack
done
