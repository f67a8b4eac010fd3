#!/usr/bin/env bash
# Session 48, one GPU of either kind: on an H200, main's state there (gpu_s47b.sh: fp32 / fp16 / fp8 / bf16
# default 16 MiB-4 GiB, then the codec CLI's split sweep, CLI_T seconds); on an H100, gpu_s48b.sh (fp32 with the
# histogram prefetch one and two rounds ahead against main; ncu of main and of one round ahead).
# Carry [".carry-run"] (gpu/, new1/, new2/, deno.xz); bench/results/ out of the tree for the call.
set -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "H200: gpu_s47b.sh"; CLI_T=${CLI_T:-240} bash scripts/gpu_s47b.sh
else
  echo "not an H200: gpu_s48b.sh"; bash scripts/gpu_s48b.sh
fi
