#!/usr/bin/env bash
# Session 40, fifth call: the lean decode-reduce (uzipGpuDecompressReduceLean, decompress_kernel<8, 4, false, true,
# DEC_CODING_LEAN>) checked and weighed: gpu_check --quick (its decode-reduce cases now also run on lean split
# 2^12 streams, each entry refusing the other coding's) and --lean, memcheck and racecheck of --reduce --tiny,
# then gpu_fuse_bench on default streams and on lean 2^12 streams (UZIP_FUSE_LEAN=1), 1-256 MiB, same call.
# Carry [".carry-run"]: gpu/ (xz: libuzip.so, gpu_check, gpu_bench, gpu_fuse_bench) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
[ -f .carry-run/gpu/gpu_fuse_bench.xz ] && [ ! -f .carry-run/gpu/gpu_fuse_bench ] &&
  xz -dc .carry-run/gpu/gpu_fuse_bench.xz > .carry-run/gpu/gpu_fuse_bench && chmod +x .carry-run/gpu/gpu_fuse_bench
check_run check 150 -- --quick
check_run lean 60 -- --lean
grep -E "decode-reduce|backend reduce" "$R/check.log" | head -4
echo "(${SECONDS}s)"
SAN_SUFFIX=reduce san_run 100 -- --reduce --tiny
echo "(${SECONDS}s)"
for r in 1 2; do
  for lean in 0 1; do
    UZIP_FUSE_LEAN=$lean timeout 120 .carry-run/gpu/gpu_fuse_bench "$R/fuse_r${r}_lean$lean.json" --reps 15 \
      --commit "$UZIP_GIT_COMMIT" --cmd "UZIP_FUSE_LEAN=$lean gpu_fuse_bench" > "$R/fuse_r${r}_lean$lean.log" 2>&1
    echo "== fuse round $r lean $lean rc=$?"; cat "$R/fuse_r${r}_lean$lean.log"
  done
  pack
done
echo "(${SECONDS}s)"
