#!/usr/bin/env bash
# Session 16: instructions per element of the interleaved kernels (the next step of docs/GPU_CODEC_NOTES.md):
# ncu --set full of one bf16 256 MiB call each, compress in the split and default layouts, decompress of the
# split layout, in the normal build (NCU_TOOLS=gpu: no source page needed for the counts).
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export NCU_TOOLS=gpu
ncu_kernel compress_kernel 262144 2 enc_split; pack
ncu_kernel decompress_kernel 262144 2 dec_split; pack
ncu_kernel compress_kernel 262144 0 enc_default; pack
