#!/usr/bin/env bash
# SASS of one kernel instantiation, read on the build machine (it has nvcc and ptxas but no disassembler):
# compiles a file that includes HEADER and instantiates KERNEL to an sm_90 cubin (about 30 s), prints
# ptxas's registers and spills, and writes the compact listing (address, instruction) to OUT.
# The disassembler comes from the GPU machine: run scripts/gpu_s17a_h200.sh there once, then
#   mkdir -p .carry/tools && for t in cuobjdump nvdisasm; do xz -dc <files_at>/$t.xz > .carry/tools/$t; done
#   chmod +x .carry/tools/*
# (or point UZIP_SASS_TOOLS at a folder holding both; cuobjdump runs nvdisasm).
# Usage: [SASS_CTL=1] scripts/sass_kernel.sh HEADER 'KERNEL<ARGS>(PARAMS)' OUT  (SASS_CTL: with control bits)
#   e.g. scripts/sass_kernel.sh gpu_encode.cuh 'compress_kernel<2, 8, 4>(const EncParams P)' /tmp/enc.txt
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
tools=${UZIP_SASS_TOOLS:-.carry/tools}
[ -x "$tools/cuobjdump" ] && [ -x "$tools/nvdisasm" ] ||
  { echo "error: no cuobjdump and nvdisasm in $tools (UZIP_SASS_TOOLS; see this script's header)" >&2; exit 1; }
export NVDISASM_PATH="$tools"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "uzip.h"\n#include "status.h"\n#include "%s"\ntemplate __global__ void uzip_gpu::%s;\n' "$1" "$2" \
  > "$tmp/one.cu"
"$NVCC" -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xptxas -v -cubin -Icuda -Inccl -o "$tmp/one.cubin" \
  "$tmp/one.cu" 2>&1 | grep -E "error|spill|Used" || true
if [ -n "${SASS_CTL:-}" ]; then  # with each instruction's stall count and scoreboards (scripts/sass_ctl.py)
  "$tools/cuobjdump" -sass "$tmp/one.cubin" | python3 scripts/sass_ctl.py > "$3"
else
  "$tools/cuobjdump" -sass "$tmp/one.cubin" |
    sed -nE 's@^[[:space:]]*/\*([0-9a-f]{4,})\*/[[:space:]]+(.*[^[:space:]])[[:space:]]*;.*@\1  \2@p' > "$3"
fi
echo "$(wc -l < "$3") instructions in $3"
