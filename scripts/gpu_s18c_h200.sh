#!/usr/bin/env bash
# Session 18, third call: warp pairs chosen by the library (two- and four-byte types, calls of one round of
# pairs) and meeting at bar.sync rendezvous. (1) the GPU machine's disassemblers (xz, for
# scripts/sass_kernel.sh); (2) gpu_check --quick of the default (pairs where chosen) and of variant 0 forced,
# memcheck and racecheck of --tiny (pairs where chosen); (3) main's build (old) against this one, same call:
# bf16 split twice, fp32 / fp16 / fp8 split and bf16 default layout once; (4) stage clocks (prof build) of
# bf16 split 1 MiB and 16 MiB with variant 0 and with pairs.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, PROF_VARIANTS=prof bash
# scripts/gpu_prof_build.sh, then .carry-run/old = main's libuzip.so and gpu_bench, .carry-run/prof = the prof
# build's libuzip.so and gpu_stages; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for t in cuobjdump nvdisasm; do
  p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
  [ -n "$p" ] && xz -T8 -6 -c "$p" > "$OUT/$t.xz"
done
# (The steps below ran inline in that call; they are device_env.sh's helpers now, same steps.)
encoder_checks
types_ab
echo "(${SECONDS}s)"
for v in 0 3; do
  UZIP_GPU_ENC_VARIANT=$v UZIP_STAGES_FLAGS=2 timeout 60 .carry-run/prof/gpu_stages 1 1024 16384 > "$R/stages_v$v.log" 2>&1
  echo "stages v$v rc=$?"; grep -E "enc |KiB" "$R/stages_v$v.log" | head -24
done
pack
echo "(${SECONDS}s)"
