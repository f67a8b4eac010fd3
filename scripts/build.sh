#!/usr/bin/env bash
# Builds build/libuzip.so from cuda/ and nccl/ with nvcc: sm_90 machine code plus compute_90 PTX, the
# CUDA runtime linked statically (so the library loads on machines with no GPU or driver), NCCL not
# linked (nccl/ dlopens it at run time). Usage: scripts/build.sh [--debug]
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "error: nvcc not found. Install the CUDA toolkit (12.8 or newer) or set NVCC=/path/to/nvcc." >&2
  exit 1
fi
OPT="-O3"
[ "${1:-}" = "--debug" ] && OPT="-O1 -g -lineinfo"
ARCH=(-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90)
mkdir -p build/obj
objs=()
for src in cuda/*.cc cuda/*.cu nccl/*.cc nccl/*.cu; do
  [ -e "$src" ] || continue
  obj="build/obj/$(echo "$src" | tr / _).o"
  objs+=("$obj")
  # Stale when the source or any header (*.h, *.cuh: the kernels live in .cuh files) is newer.
  if [ "$obj" -nt "$src" ] && [ -z "$(find cuda nccl \( -name '*.h' -o -name '*.cuh' \) -newer "$obj" -print -quit)" ]; then
    continue
  fi
  case "$src" in
    *.cu) "$NVCC" $OPT -std=c++17 "${ARCH[@]}" -Xcompiler -fPIC,-fvisibility=hidden -Icuda -Inccl \
            -c "$src" -o "$obj.tmp.$$" ;;
    *.cc) "$NVCC" $OPT -std=c++17 -x c++ -Xcompiler -fPIC,-fvisibility=hidden,-Wall -Icuda -Inccl \
            -I/usr/local/cuda/include -c "$src" -o "$obj.tmp.$$" ;;
  esac
  mv "$obj.tmp.$$" "$obj"  # private temp name: parallel builds never see a half-written object
done
"$NVCC" -shared "${ARCH[@]}" -cudart static -o build/libuzip.so.tmp.$$ "${objs[@]}" -ldl -lpthread
mv build/libuzip.so.tmp.$$ build/libuzip.so
echo "built build/libuzip.so"
