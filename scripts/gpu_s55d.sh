#!/usr/bin/env bash
# Session 55, one GPU, after gpu_s55c.sh: the TypeScript GPU suites (device buffers, streams, the codec on device
# and host arrays, the collectives' GPU simulation, communicator errors) on the library as merged (gpu/: main's
# other objects, unchanged since 470fd1f, with the merged codec object), and a racecheck of gpu_check --tiny
# --bytes and --lean on it (the decode table's fill changed; shared memory). Carry [".carry-run"] (gpu/ = the
# merged build, deno.xz, the commit file); bench/results/ out of the tree (64 MiB).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
deno_gpu_suites
echo "(${SECONDS}s)"
racecheck_parts "${PARTS:-lean:120 bytes:300}" 580
