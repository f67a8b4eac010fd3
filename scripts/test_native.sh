#!/usr/bin/env bash
# Builds and runs the native unit tests (the CPU reference codec; the collectives' reduce helpers; the GPU
# encoder's kernel choice) with AddressSanitizer and UBSan.
# Usage: scripts/test_native.sh   (needs g++; no GPU, no nvcc)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/native
SRCS=(cuda/cpu_header.cc cuda/cpu_ans.cc cuda/cpu_encode.cc cuda/cpu_decode.cc cuda/cpu_lanes.cc cuda/inspect.cc cuda/status.cc)
g++ -std=c++17 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wall -Wextra -Icuda -Itests/native -pthread "${SRCS[@]}" tests/native/cpu_codec_test.cc \
  -o build/native/cpu_codec_test
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 build/native/cpu_codec_test
# The collectives' per-instantiation reduce helpers against the element arithmetic (nccl/coll_reduce.h).
g++ -std=c++17 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wall -Wextra -Inccl tests/native/coll_reduce_test.cc -o build/native/coll_reduce_test
build/native/coll_reduce_test
# The GPU encoder's kernel choice per call (cuda/enc_variant.h), at its boundaries.
g++ -std=c++17 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wall -Wextra -Icuda tests/native/enc_variant_test.cc -o build/native/enc_variant_test
build/native/enc_variant_test
# The GPU decoder's kernel choice per call (cuda/dec_variant.h), at its boundaries.
g++ -std=c++17 -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wall -Wextra -Icuda tests/native/dec_variant_test.cc -o build/native/dec_variant_test
build/native/dec_variant_test
