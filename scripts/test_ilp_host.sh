#!/usr/bin/env bash
# Runs the GPU's interleaved-chain ANS cores (cuda/gpu_ilp.cuh) on the CPU, 32 threads as the lanes of a
# warp, against the CPU codec (tests/native/ilp_host_test.cc), with AddressSanitizer and UBSan.
# Usage: scripts/test_ilp_host.sh   (needs g++ 12+; no GPU, no nvcc; about 2 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/native
g++ -std=c++20 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wall -Wno-unknown-pragmas -Icuda -pthread tests/native/ilp_host_test.cc cuda/cpu_ans.cc cuda/status.cc \
  -o build/native/ilp_host_test
build/native/ilp_host_test
