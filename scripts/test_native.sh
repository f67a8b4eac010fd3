#!/usr/bin/env bash
# Builds and runs the native unit tests (the CPU reference codec; the collectives' reduce helpers; the GPU
# encoder's and decoder's kernel choices) with AddressSanitizer and UBSan, and the codec's threaded paths with
# ThreadSanitizer.
# Usage: scripts/test_native.sh   (needs g++; no GPU, no nvcc)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/native
CXX=(g++ -std=c++17 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
  -Wall -Wextra)
# native_test NAME FLAGS_AND_SOURCES...: builds tests/native/NAME.cc with them into build/native/NAME, runs it.
native_test() {
  local name=$1
  shift
  "${CXX[@]}" "$@" "tests/native/$name.cc" -o "build/native/$name"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "build/native/$name"
}
SRCS=(cuda/cpu_header.cc cuda/cpu_ans.cc cuda/cpu_encode.cc cuda/cpu_decode.cc cuda/cpu_lanes.cc cuda/cpu_pairs.cc cuda/cpu_threads.cc cuda/inspect.cc cuda/status.cc)
native_test cpu_codec_test -Icuda -Itests/native -pthread "${SRCS[@]}"
# The codec's block threads (uzipCompressCpuMt / uzipDecompressCpuMt) under ThreadSanitizer.
g++ -std=c++17 -O1 -g -fsanitize=thread -pthread -Icuda -Itests/native "${SRCS[@]}" tests/native/cpu_codec_test.cc \
  -o build/native/cpu_codec_test_tsan
TSAN_OPTIONS=halt_on_error=1 build/native/cpu_codec_test_tsan threads
# The collectives' per-instantiation reduce helpers against the element arithmetic (nccl/coll_reduce.h).
native_test coll_reduce_test -Inccl
# The GPU encoder's and decoder's kernel choices per call (cuda/enc_variant.h, cuda/dec_variant.h) and the launch
# grid under an SM budget (cuda/grid_shape.h), at their boundaries.
native_test enc_variant_test -Icuda
native_test dec_variant_test -Icuda
native_test grid_shape_test -Icuda
# The pairing rule of P2P transfers to self (nccl/p2p_self.cc), which the one-GPU test runs for real.
native_test p2p_self_test -Icuda -Inccl nccl/p2p_self.cc cuda/status.cc
# The GPU tests' data sets against the decoder's three decode-table fills (cuda/dec_table.h).
native_test dec_table_test -Icuda -Itests/native -pthread "${SRCS[@]}"
