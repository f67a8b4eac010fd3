#!/usr/bin/env bash
# One H200 call: this build against the baseline build in .carry-run/old (scripts/pack_device.sh packs
# .carry/old), same call: full gpu_check of this build (and MEMCHECK=1: memcheck --tiny), then gpu_bench of
# both builds, ROUNDS interleaved rounds (default 2), DTYPES (default 1,2,3), FLAGS layouts (default
# "0 2"), SIZES in KiB (default 64 KiB-1 GiB). Usage (device): bash scripts/gpu_codec_ab.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'failures' "$R/check.log" | tail -6
if [ "${MEMCHECK:-0}" = 1 ]; then
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
  echo "== memcheck rc=$?"; tail -1 "$R/memcheck.log"
fi
pack
SZ=${SIZES:-64,256,1024,4096,16384,65536,262144,1048576}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for dir in gpu old; do
    for fl in ${FLAGS:-0 2}; do
      tag=${dir}_f${fl}_r$round
      timeout 90 .carry-run/$dir/gpu_bench "$R/ab_$tag.json" --dtypes ${DTYPES:-1,2,3} --flags $fl --sizes-kib $SZ \
        --sms 0 --reps 10 --commit "$UZIP_GIT_COMMIT" --cmd "$dir/gpu_bench --dtypes ${DTYPES:-1,2,3} --flags $fl --sizes-kib $SZ" \
        > "$R/ab_$tag.log" 2>&1
      echo "== $tag rc=$?"
    done
  done
  pack
done
# Side by side: compress / decompress TB/s and the pipelined us per call (stream c, d), this build | old.
for fl in ${FLAGS:-0 2}; do
  echo "== flags $fl: dtype size | comp decomp c_us d_us (gpu r1, r2) | (old r1, r2)"
  paste <(grep -hE '^(bf16|fp16|fp32|fp8e4m3|fp8e5m2) ' "$R/ab_gpu_f${fl}_r1.log" | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$5,$6,$10,$11}') \
        <(grep -hE '^(bf16|fp16|fp32|fp8e4m3|fp8e5m2) ' "$R/ab_gpu_f${fl}_r2.log" 2>/dev/null | awk '{printf "%s %s %s %s\n",$5,$6,$10,$11}') \
        <(grep -hE '^(bf16|fp16|fp32|fp8e4m3|fp8e5m2) ' "$R/ab_old_f${fl}_r1.log" | awk '{printf "| %s %s %s %s\n",$5,$6,$10,$11}') \
        <(grep -hE '^(bf16|fp16|fp32|fp8e4m3|fp8e5m2) ' "$R/ab_old_f${fl}_r2.log" 2>/dev/null | awk '{printf "%s %s %s %s\n",$5,$6,$10,$11}')
done
