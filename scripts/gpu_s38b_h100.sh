#!/usr/bin/env bash
# Session 38, second call: branch exp/s38-tables against main's build (old/), same call: a1/ = build_enc_table
# by rows of present symbols; gpu/ = that and the decoder's few-symbol table fill by 16-byte stores. Checks of
# gpu/ first (the streams' bytes must not move: gpu_check compares every GPU stream with the CPU codec's and
# decodes the CPU's), then three builds in two rounds (bf16 and fp32 split, bf16 default layout, fp16 and fp8
# default layout: fp16/fp8 tables fill every row), then per-stage cycles of gpu/'s profiling build (prof/), the
# decoder's table stage in four parts. Carry [".carry-run"]: gpu/, a1/, old/, prof/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for f in .carry-run/prof/gpu_stages.xz; do [ -f "$f" ] && xz -dc "$f" > "${f%.xz}" && chmod +x "${f%.xz}"; done
check_run quick 240 -- --quick
check_run lean 200 -- --lean
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_dirs r${r}_split "old a1 gpu" --dtypes 1,3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  [ $r = 1 ] && gpu_bench_dirs r${r}_default "old a1 gpu" --dtypes 1,2,4 --flags 0 --sizes-kib "1024 16384 262144" \
    --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
for cfg in "2 13" "0x12 12"; do
  set -- $cfg
  UZIP_STAGES_FLAGS=$1 UZIP_STAGES_LOG2=$2 timeout 60 .carry-run/prof/gpu_stages 1 1024 16384 262144 \
    > "$R/stages_f$1_l$2.txt" 2>&1
  echo "== stages flags $1 log2 $2 rc=$?"; grep -E 'KiB|normalize|build tab|dec tab|dec segment|dec table|sum' \
    "$R/stages_f$1_l$2.txt" | head -40
done
UZIP_STAGES_FLAGS=0 timeout 60 .carry-run/prof/gpu_stages 2 16384 > "$R/stages_fp16.txt" 2>&1
echo "== stages fp16 rc=$?"; grep -E 'KiB|normalize|build tab|dec tab|dec segment|dec table|sum' "$R/stages_fp16.txt"
pack; echo "(${SECONDS}s)"
