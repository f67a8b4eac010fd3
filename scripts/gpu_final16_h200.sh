#!/usr/bin/env bash
# Session 16's main build on one H200 (lane decode told its dtype; gpu_check decodes lane streams with no,
# their own and another dtype): gpu_check --quick, the TS device suite (Deno carried), the lane encoder's
# ring of 6 chunks (variant 2, the default) against 4 chunks at 24 warps (variant 4) from 256 MiB to 2 GiB
# for bf16 and fp32 with the interleaved split layout in the same call, then memcheck and racecheck of
# gpu_check --tiny. Pack: PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
check_run check 150 -- --quick
echo "(${SECONDS}s)"
if command -v deno > /dev/null; then
  timeout 120 deno test -A --no-check tests/device_gpu_test.ts > "$R/device_gpu_test.log" 2>&1
  echo "device_gpu_test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/device_gpu_test.log" | grep -E "passed|FAILED|failed" | tail -3
  pack
fi
echo "(${SECONDS}s)"
lanes_enc_sweep "1 3" "14" "2 4" 262144,524288,1048576,2097152
echo "(${SECONDS}s)"
san_run 200 -- --tiny
echo "(${SECONDS}s)"
