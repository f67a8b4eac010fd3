#!/usr/bin/env bash
# Session 41, first call (one H200): the P2P engine's transfers to self on one GPU (tests/p2p_gpu_test.ts: the
# compressed pipeline with lean chunks, wire bytes against the CPU codec, unpaired self ops refused) and the
# communicator error suite; then main's codec kernels (unchanged in this build) swept on the H200 as
# scripts/gpu_s40f.sh does. Carry [".carry-run"]: gpu/ (xz: libuzip.so, gpu_check, gpu_bench, gpu_fuse_bench),
# deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 300 deno test -A --no-check tests/p2p_gpu_test.ts tests/comm_errors_test.ts > "$R/p2p_self.log" 2>&1
echo "deno test p2p self + comm errors rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_self.log" | grep -E "SELF OK|passed|failed|SKIP|FAILED|error" | tail -12
pack; echo "(${SECONDS}s)"
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(tail -1 "$R/gpu.txt")"; exit 0; }
bash scripts/gpu_s40f.sh
