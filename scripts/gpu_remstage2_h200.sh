#!/usr/bin/env bash
# One H200 call, after scripts/gpu_remstage_h200.sh: the staged remainder section with the stage's stride
# kept (words end one u16 below the plane's end; .carry-run/gpu) against the first form (64 bytes more
# per stage; .carry-run/new1) and the build before both (.carry-run/old). gpu_check and memcheck of the
# new build, then gpu_bench alternating, twice.
# Usage (device; carry .carry-run with new1/ and old/ copied in): bash scripts/gpu_remstage2_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -2
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_memcheck.log" 2>&1
echo "== memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
pack
bench() {
  local tag=$1 dir=$2; shift 2
  timeout 200 .carry-run/$dir/gpu_bench "$R/$tag.json" --commit "$UZIP_GIT_COMMIT" --cmd "$dir/gpu_bench $*" "$@" \
    > "$R/$tag.log" 2>&1
  echo "== $tag rc=$?: $(grep -E '^(bf16|fp16|fp32|fp8)' "$R/$tag.log" | awk '{printf "%s %s r=%s %s/%s; ", $1, $2, $4, $5, $6}') $(grep -c MISMATCH "$R/$tag.log") mismatches"
}
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
"$PY" - <<'PY'
import numpy as np
rng = np.random.default_rng(20261201)
x = (rng.standard_normal(4 << 20) * 0.02).astype(np.float32).view(np.uint32)
b = ((x + 0x7FFF + ((x >> 16) & 1)) >> 16).astype(np.uint16) & np.uint16(0xFFF0)
b.tofile("/tmp/wdata/lowbits_bf16.bin")
PY
for r in 1 2; do
  for b in gpu new1 old; do
    bench "g_${b}_r$r" $b --dtypes 1,2 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10
    bench "lowbits_bf16_${b}_r$r" $b --dtypes 1 --flags 0 --sizes-kib 262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/lowbits_bf16.bin
    bench "w_fp16_${b}_r$r" $b --dtypes 2 --flags 0 --sizes-kib 262144 --sms 0 --reps 10 --input /tmp/wdata/weights_fp16.bin
  done
  pack
done
