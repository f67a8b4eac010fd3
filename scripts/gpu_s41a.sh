#!/usr/bin/env bash
# Session 41, queued (no device came that session): the P2P engine's transfers to self on one GPU
# (tests/p2p_gpu_test.ts: the whole compressed pipeline, bit for bit, its wire bytes against the CPU codec's
# chunks, unpaired self ops refused; the 2-GPU cases skip) and the communicator error suite; then, on an H200,
# main's codec kernels swept as scripts/gpu_s40f.sh does. With docs/experiments/p2p-lean-chunks.diff applied
# before the build, the same self test checks P2P's lean chunks. Carry [".carry-run"]: gpu/ (xz: libuzip.so, gpu_check, gpu_bench, gpu_fuse_bench),
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
