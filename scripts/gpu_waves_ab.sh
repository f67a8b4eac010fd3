#!/usr/bin/env bash
# One H200 call (session 11): even waves (UZIP_GPU_WAVES=1, see wave_idle in cuda/gpu_warp.cuh) against
# the default, same build, interleaved rounds. First gpu_check --quick with the option on (bytes equal to
# the CPU's), then gpu_bench ROUNDS rounds of both settings, both layouts, DTYPES at SIZES (KiB).
# Usage (device, after PACK_WEIGHTS=none bash scripts/pack_device.sh here): bash scripts/gpu_waves_ab.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
UZIP_GPU_WAVES=1 timeout 200 .carry-run/gpu/gpu_check --quick > "$R/check_waves.log" 2>&1
echo "== gpu_check --quick waves=1 rc=$?"; grep -E 'PASSED|FAILED' "$R/check_waves.log" | tail -2
pack
SZ=${SIZES:-65536,131072,262144,524288,1048576}
DT=${DTYPES:-1,3}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for fl in 2 0; do for wv in 0 1; do
    tag="w${wv}_f${fl}_r$round"
    UZIP_GPU_WAVES=$wv timeout 120 .carry-run/gpu/gpu_bench "$R/$tag.json" --dtypes "$DT" --flags "$fl" \
      --sizes-kib "$SZ" --sms 0 --reps 10 --commit "$UZIP_GIT_COMMIT" \
      --cmd "UZIP_GPU_WAVES=$wv gpu_bench --dtypes $DT --flags $fl --sizes-kib $SZ --reps 10" > "$R/$tag.log" 2>&1
    echo "== $tag rc=$?"
  done; done
  pack
done
echo "== compress / decompress TB/s: dtype size | waves 0 (r1, r2) | waves 1 (r1, r2)"
for fl in 2 0; do
  echo "-- flags $fl"
  paste -d' ' <(grep -hE '^(bf16|fp16|fp32) ' "$R/w0_f${fl}_r1.log" | awk '{printf "%s %s | %s %s", $1, $2, $5, $6}') \
    <(grep -hE '^(bf16|fp16|fp32) ' "$R/w0_f${fl}_r2.log" | awk '{printf "%s %s |", $5, $6}') \
    <(grep -hE '^(bf16|fp16|fp32) ' "$R/w1_f${fl}_r1.log" | awk '{printf "%s %s", $5, $6}') \
    <(grep -hE '^(bf16|fp16|fp32) ' "$R/w1_f${fl}_r2.log" | awk '{printf "%s %s", $5, $6}')
done
