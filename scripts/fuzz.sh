#!/usr/bin/env bash
# Builds the decoder fuzzer with AddressSanitizer + UBSan (g++; its own mutation driver since there is
# no libFuzzer here) and runs it. Usage: scripts/fuzz.sh [seconds=60] [max_inputs=0] [seed=1]
# Prints the number of inputs executed; exits non-zero on a sanitizer report or a property violation.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/native
SRCS=(cuda/cpu_header.cc cuda/cpu_ans.cc cuda/cpu_encode.cc cuda/cpu_decode.cc cuda/cpu_lanes.cc cuda/cpu_pairs.cc cuda/cpu_threads.cc cuda/inspect.cc cuda/status.cc)
g++ -std=c++17 -O1 -g -pthread -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Icuda -Itests/native "${SRCS[@]}" tests/native/fuzz_decode.cc -o build/native/fuzz_decode
ASAN_OPTIONS=detect_leaks=1 build/native/fuzz_decode "${1:-60}" "${2:-0}" "${3:-1}"
