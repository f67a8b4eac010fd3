#!/usr/bin/env bash
# Session 55, first call (one GPU; main's build at 470fd1f in gpu/, the device code of main since session 54).
# On an H200: main's bf16 split rows with the kernels' new end, 64 KiB-64 MiB (20 calls back to back) and 256 MiB-1
# GiB, two rounds (the README's small-call figures are H200 ones), then main's fp32 split rows 256 MiB-4 GiB (owed
# since session 50). On any GPU, with the call's time left: compute-sanitizer racecheck of gpu_check --tiny in
# parts (session 39's split: one run of the whole outlasts a call), line-buffered so that a cut part shows how far
# it got; the default coding's cases (--bytes) and --lean first, as the kernels' end changed in every kernel.
# Carry [".carry-run"] (gpu/ and the commit file; Deno not needed).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
if grep -q H200 "$R/gpu.txt"; then
  small_large_rounds main gpu
  fp32_main_h200 400
fi
racecheck_parts "${PARTS:-bytes:300 lean:120 reduce:80 pairs:80 lanes:80}" 580
