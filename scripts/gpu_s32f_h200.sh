#!/usr/bin/env bash
# Session 32, call 6: the TypeScript GPU suites (device buffers, streams, the codec incl. the pair decoder
# through GpuCodec.decompress({ pairs: true }), the collectives' GPU simulation, communicator errors) on the
# final build. Carry [".carry-run"] (gpu/ xz, deno.xz).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
deno_gpu_suites
echo "(${SECONDS}s)"
