#!/usr/bin/env bash
# Session 41 (run as call 5), one GPU: what one GPU can check of P2P and the collectives
# through NCCL's single-rank communicator: tests/p2p_gpu_test.ts (its transfers to self: the whole compressed
# pipeline, bit for bit, its wire bytes against the CPU codec's chunks, unpaired self ops refused), the
# collectives on one rank (tests/collectives_gpu_test.ts: always == plainSchedule == NCCL; every collective a
# copy), and the communicator error suite; the 2-GPU cases skip. (The self test pins each chunk's coding: lean
# sections for small blocks since session 41's merge of the lean chunks.) The H200 sweep is scripts/gpu_s40f.sh
# (a call of its own). Carry [".carry-run"]: gpu/ (xz: libuzip.so at least), deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 540 deno test -A --no-check tests/p2p_gpu_test.ts tests/collectives_gpu_test.ts tests/comm_errors_test.ts \
  > "$R/one_gpu_comm.log" 2>&1
echo "deno test (P2P self, collectives on one rank, comm errors) rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$R/one_gpu_comm.log" | grep -E "SELF OK|comparisons|FAIL|passed|failed|SKIP|error" | tail -16
pack; echo "(${SECONDS}s)"
