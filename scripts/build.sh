#!/usr/bin/env bash
# Builds libuzip.so from cuda/ and nccl/ with nvcc: sm_90 machine code plus compute_90 PTX, the CUDA
# runtime linked statically (so the library loads on machines with no GPU or driver), NCCL not linked
# (nccl/ dlopens it at run time).
# --cpu-only: the CPU codec alone (identity, errors, inspection, compress/decompress of host arrays),
# compiled by a host C++ compiler ($CXX, else c++, g++ or clang++) where there is no nvcc; its
# uzipBuildFeatures() says so, and the bindings name the missing CUDA build when a GPU function is called.
# Usage: scripts/build.sh [--debug] [--cpu-only] [--out PATH]   (default PATH: build/libuzip.so)
set -euo pipefail
cd "$(dirname "$0")/.."
DEBUG=0 CPU_ONLY=0 OUTPUT=build/libuzip.so
while [ $# -gt 0 ]; do
  case "$1" in
    --debug) DEBUG=1 ;;
    --cpu-only) CPU_ONLY=1 ;;
    --out) OUTPUT=$2; shift ;;
    *) echo "usage: scripts/build.sh [--debug] [--cpu-only] [--out PATH]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$(dirname "$OUTPUT")"

# stale OBJ SRC: the object is missing, or older than its source or any header of cuda/ and nccl/.
stale() {
  ! [ "$1" -nt "$2" ] || [ -n "$(find cuda nccl \( -name '*.h' -o -name '*.cuh' \) -newer "$1" -print -quit)" ]
}

if [ "$CPU_ONLY" = 1 ]; then
  CXX_BIN=${CXX:-$(command -v c++ || command -v g++ || command -v clang++ || true)}
  if [ -z "$CXX_BIN" ]; then
    echo "error: no C++ compiler found for the CPU-only build (set CXX=/path/to/g++)." >&2
    exit 1
  fi
  OPT=(-O3)
  [ "$DEBUG" = 1 ] && OPT=(-O1 -g)
  # Objects of a debug build are kept apart, so that switching never links one kind with the other.
  OBJ_DIR=build/obj-cpu$([ "$DEBUG" = 1 ] && echo -debug || true)
  mkdir -p "$OBJ_DIR"
  objs=()
  # The CPU codec's sources: none of them includes a CUDA header.
  for src in cuda/cpu_*.cc cuda/inspect.cc cuda/status.cc; do
    obj="$OBJ_DIR/$(echo "$src" | tr / _).o"
    objs+=("$obj")
    stale "$obj" "$src" || continue
    "$CXX_BIN" "${OPT[@]}" -std=c++17 -fPIC -fvisibility=hidden -Wall -pthread -DUZIP_CPU_ONLY -Icuda \
      -c "$src" -o "$obj.tmp.$$"
    mv "$obj.tmp.$$" "$obj"  # private temp name: parallel builds never see a half-written object
  done
  "$CXX_BIN" -shared -pthread -o "$OUTPUT.tmp.$$" "${objs[@]}"
  mv "$OUTPUT.tmp.$$" "$OUTPUT"
  echo "built $OUTPUT (CPU codec only: no CUDA, no NCCL)"
  exit 0
fi

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "error: nvcc not found. Install the CUDA toolkit (12.8 or newer) or set NVCC=/path/to/nvcc" \
    "(or build the CPU codec alone: scripts/build.sh --cpu-only)." >&2
  exit 1
fi
OPT="-O3"
[ "$DEBUG" = 1 ] && OPT="-O1 -g -lineinfo"
ARCH=(-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90)
mkdir -p build/obj
objs=()
for src in cuda/*.cc cuda/*.cu nccl/*.cc nccl/*.cu; do
  [ -e "$src" ] || continue
  obj="build/obj/$(echo "$src" | tr / _).o"
  objs+=("$obj")
  # Stale when the source or any header (*.h, *.cuh: the kernels live in .cuh files) is newer.
  stale "$obj" "$src" || continue
  case "$src" in
    *.cu) "$NVCC" $OPT -std=c++17 "${ARCH[@]}" -Xcompiler -fPIC,-fvisibility=hidden -Icuda -Inccl \
            -c "$src" -o "$obj.tmp.$$" ;;
    *.cc) "$NVCC" $OPT -std=c++17 -x c++ -Xcompiler -fPIC,-fvisibility=hidden,-Wall -Icuda -Inccl \
            -I/usr/local/cuda/include -c "$src" -o "$obj.tmp.$$" ;;
  esac
  mv "$obj.tmp.$$" "$obj"  # private temp name: parallel builds never see a half-written object
done
"$NVCC" -shared "${ARCH[@]}" -cudart static -o "$OUTPUT.tmp.$$" "${objs[@]}" -ldl -lpthread
mv "$OUTPUT.tmp.$$" "$OUTPUT"
echo "built $OUTPUT"
