#!/usr/bin/env bash
# One H200 call: fp32 blocks with both planes ANS decoded remainder-first on the vector path
# (decompress_block in cuda/gpu_decode.cuh), this build (.carry-run/gpu) against the one before
# (.carry-run/old): gpu_check and memcheck of the new build; gpu_bench on fp32 data holding bf16 values
# (low 16 mantissa bits zero: every block codes both planes) and on Gaussian fp32 as the control.
# Usage (device, after PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh with the earlier build
# in .carry/old): bash scripts/gpu_fp32_remfirst_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -2
pack
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
"$PY" - <<'PY'
import numpy as np
rng = np.random.default_rng(20261202)
x = (rng.standard_normal(4 << 20) * 0.02).astype(np.float32).view(np.uint32)
(((x + 0x7FFF + ((x >> 16) & 1)) >> 16) << 16).astype(np.uint32).tofile("/tmp/wdata/bf16vals_fp32.bin")
PY
bench() {
  local tag=$1 dir=$2; shift 2
  timeout 100 .carry-run/$dir/gpu_bench "$R/$tag.json" --commit "$UZIP_GIT_COMMIT" --cmd "$dir/gpu_bench $*" "$@" \
    > "$R/$tag.log" 2>&1
  echo "== $tag rc=$?: $(grep -E '^(bf16|fp16|fp32|fp8)' "$R/$tag.log" | awk '{printf "%s %s r=%s %s/%s; ", $1, $2, $4, $5, $6}') $(grep -c MISMATCH "$R/$tag.log") mismatches"
}
for r in 1 2; do
  for b in gpu old; do
    bench "bf16vals_fp32_${b}_r$r" $b --dtypes 3 --flags 0 --sizes-kib 65536,262144,1048576 --sms 0 --reps 10 --input /tmp/wdata/bf16vals_fp32.bin
    bench "g_fp32_${b}_r$r" $b --dtypes 3 --flags 0 --sizes-kib 262144 --sms 0 --reps 10
  done
done
pack
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/san_memcheck.log" 2>&1
echo "== memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
pack
