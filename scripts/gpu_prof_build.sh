#!/usr/bin/env bash
# Builds profiling variants of the GPU codec next to .carry/gpu (after scripts/gpu_check.sh --build):
#   .carry/gpu/prof/  libuzip.so with -DUZIP_STAGE_CLOCKS (per-stage SM cycles), gpu_stages, gpu_bench
#   .carry/gpu/li/    libuzip.so with -lineinfo (for ncu's source page), gpu_bench
# PROF_VARIANTS="prof" (or "li") builds only that one.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCH=(-gencode=arch=compute_90,code=sm_90)
others=$(ls build/obj/*.o | grep -v cuda_gpu_codec.cu.o)
for v in ${PROF_VARIANTS:-prof li}; do
  mkdir -p .carry/gpu/$v
  flags=(-lineinfo)
  [ $v = prof ] && flags+=(-DUZIP_STAGE_CLOCKS)
  nvcc -O3 -std=c++17 "${ARCH[@]}" "${flags[@]}" -Xcompiler -fPIC,-fvisibility=hidden -Icuda -Inccl \
    -c cuda/gpu_codec.cu -o /tmp/gpu_codec_$v.o
  nvcc -shared "${ARCH[@]}" -cudart static -o .carry/gpu/$v/libuzip.so /tmp/gpu_codec_$v.o $others -ldl -lpthread
  for t in gpu_bench $([ $v = prof ] && echo gpu_stages); do
    nvcc -O2 -std=c++17 -Icuda -Inccl "tests/native/$t.cu" -o ".carry/gpu/$v/$t" -L.carry/gpu/$v -luzip -Xlinker -rpath,'$ORIGIN'
  done
done
echo "built .carry/gpu/prof .carry/gpu/li"
