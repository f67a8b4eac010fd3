#!/usr/bin/env bash
# One H200 call: the GPU simulation of the collectives (tests/collectives_gpu_sim_test.ts: every rank's
# GPU backend on this GPU, 2-8 ranks, against the CPU schedules), the TS device/codec GPU suite, and the
# full native gpu_check. Usage (device, after scripts/pack_device.sh here): bash scripts/gpu_sim.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,memory.total --format=csv > "$R/gpus.csv"
cat "$R/gpus.csv"
strip_ansi() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }
t0=$(date +%s)
timeout "${SIM_TIMEOUT:-420}" deno test -A --no-check tests/collectives_gpu_sim_test.ts > "$R/gpu_sim_test.log" 2>&1
echo "== gpu sim test rc=$? ($(( $(date +%s) - t0 )) s)"
strip_ansi "$R/gpu_sim_test.log" | grep -E 'GPU runs|ok|FAILED|error|passed|failed|difference' | head -12
pack
timeout 120 deno test -A --no-check tests/device_gpu_test.ts > "$R/device_gpu_test.log" 2>&1
echo "== device gpu test rc=$?"; strip_ansi "$R/device_gpu_test.log" | grep -E 'passed|failed|FAILED' | head -5
pack
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'failures' "$R/check.log" | tail -4
pack
