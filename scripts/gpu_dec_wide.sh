#!/usr/bin/env bash
# One H200 call (session 11): the fp32 decode kernel that uzipGpuDecompressAs picks when told the stream
# is fp32 (dec_kernel_wide in cuda/gpu_codec.cu). Full gpu_check (every case decoded with no dtype, its
# own and a wrong one; damaged streams alternate between the two kernels), memcheck --tiny, the TS device
# suite (the same three dtype hints), then gpu_bench ROUNDS rounds with the dtype given (--dec-hint 1)
# and not (0), DTYPES at SIZES (KiB), both layouts.
# Usage (device, after PACK_WEIGHTS=none bash scripts/pack_device.sh here): bash scripts/gpu_dec_wide.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -4
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
echo "== memcheck rc=$?"; tail -1 "$R/memcheck.log"
timeout 120 deno test -A --no-check tests/device_gpu_test.ts > "$R/device_gpu_test.log" 2>&1
echo "== device gpu test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/device_gpu_test.log" | grep -E 'passed|failed|FAILED' | head -5
pack
SZ=${SIZES:-16384,65536,262144,1048576}
DT=${DTYPES:-1,2,3,4}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for fl in 2 0; do for h in 0 1; do
    tag="h${h}_f${fl}_r$round"
    timeout 150 .carry-run/gpu/gpu_bench "$R/$tag.json" --dtypes "$DT" --flags "$fl" --sizes-kib "$SZ" --sms 0 \
      --reps 10 --dec-hint "$h" --commit "$UZIP_GIT_COMMIT" \
      --cmd "gpu_bench --dtypes $DT --flags $fl --sizes-kib $SZ --reps 10 --dec-hint $h" > "$R/$tag.log" 2>&1
    echo "== $tag rc=$?"
  done; done
  pack
done
for fl in 2 0; do
  echo "-- flags $fl: dtype size | decompress TB/s without the dtype (r1 r2) | with it (r1 r2)"
  for t in h0 h1; do grep -hE '^(bf16|fp16|fp32|fp8e4m3) ' "$R/${t}_f${fl}_r1.log" | awk '{print $1, $2, $6}' > "$R/$t.r1"; done
  for t in h0 h1; do grep -hE '^(bf16|fp16|fp32|fp8e4m3) ' "$R/${t}_f${fl}_r2.log" | awk '{print $6}' > "$R/$t.r2"; done
  paste -d' ' "$R/h0.r1" "$R/h0.r2" "$R/h1.r1" "$R/h1.r2" | awk '{print $1, $2, "|", $3, $4, "|", $7, $8}'
done
