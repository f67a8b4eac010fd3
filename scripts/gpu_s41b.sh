#!/usr/bin/env bash
# Session 41, second call: P2P's lean chunks (docs/experiments/p2p-lean-chunks.diff applied to the working tree
# and to the carried build) through the transfers to self on one GPU: tests/p2p_gpu_test.ts, whose fixture then
# expects lean sections for chunks of 2^13-element blocks and less (bf16, fp16, fp32) and compares every
# compressed transfer's wire bytes with the CPU codec's lean streams. Prints the NCCL version first. On an
# H200, scripts/gpu_s40f.sh (the sweep of main's codec kernels, which the diff does not touch) follows.
# Carry [".carry-run"]: gpu/ (xz: libuzip.so built with the diff, gpu_check, gpu_bench, gpu_fuse_bench),
# deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
deno eval 'import { ncclVersion } from "./src/comm.ts"; console.log(`NCCL ${ncclVersion()}`);' 2>&1 | tee "$R/nccl.txt"
timeout 300 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_self_lean.log" 2>&1
echo "deno test (P2P self, lean chunks) rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_self_lean.log" | grep -E "SELF OK|FAIL|passed|failed|error" | tail -8
pack; echo "(${SECONDS}s)"
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
bash scripts/gpu_s40f.sh
