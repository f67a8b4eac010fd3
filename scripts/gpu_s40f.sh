#!/usr/bin/env bash
# Session 40, last call: only on an H200 (the issue's card; calls 2-5 got H100s): the merged build's sweep of
# scripts/gpu_s40b.sh (every dtype, both layouts, 1 MiB-1 GiB; bf16 and fp32 split 4 GiB), then bf16 and fp32
# split at 1-16 MiB in lean sections at 2^12 through uzipGpuDecompressEither beside the default coding, and
# the lean decode-reduce (gpu_fuse_bench, default and lean streams). On another card it stops at once.
# Carry [".carry-run"]: gpu/ (xz: libuzip.so, gpu_check, gpu_bench, gpu_fuse_bench) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
[ -f .carry-run/gpu/gpu_fuse_bench ] ||
  { xz -dc .carry-run/gpu/gpu_fuse_bench.xz > .carry-run/gpu/gpu_fuse_bench && chmod +x .carry-run/gpu/gpu_fuse_bench; }
codec_sweep
for d in 1 3; do
  BENCH_TIMEOUT=120 gpu_bench_run "sweep_d${d}_f2_4g" gpu -- --dtypes $d --flags 2 --sizes-kib "4194304" --sms 0 --reps 5
done
pack; echo "(${SECONDS}s)"
for d in 1 3; do
  gpu_bench_run "small_d${d}_f2" gpu -- --dtypes $d --flags 2 --sizes-kib "1024 4096 16384" --sms 0 --reps 10 >/dev/null
  gpu_bench_run "small_d${d}_f18_l12_either" gpu UZIP_BENCH_EITHER=1 -- --dtypes $d --flags 18 --log2 12 \
    --sizes-kib "1024 4096 16384" --sms 0 --reps 10 >/dev/null
  for t in f2 f18_l12_either; do
    grep -E '^(bf16|fp32)' "$R/small_d${d}_$t.log" | awk -v t="$t" '{printf "%-16s %s %s r=%s us %s/%s b2b %s/%s\n", t, $1, $2, $4, $8, $9, $10, $11}'
  done
done
pack; echo "(${SECONDS}s)"
for lean in 0 1; do
  UZIP_FUSE_LEAN=$lean timeout 120 .carry-run/gpu/gpu_fuse_bench "$R/fuse_lean$lean.json" --reps 15 \
    --commit "$UZIP_GIT_COMMIT" --cmd "UZIP_FUSE_LEAN=$lean gpu_fuse_bench" > "$R/fuse_lean$lean.log" 2>&1
  echo "== fuse lean $lean rc=$?"; head -8 "$R/fuse_lean$lean.log"
done
pack; echo "(${SECONDS}s)"
