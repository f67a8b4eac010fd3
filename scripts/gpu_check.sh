#!/usr/bin/env bash
# Device-side GPU codec run: expects build/libuzip.so, gpu_check and gpu_bench prebuilt (by
# scripts/gpu_check.sh --build here) in .carry/gpu/. Runs the check, compute-sanitizer memcheck and
# racecheck on a small run, then the bench. Logs and JSON go to ${OUT:-bench/out}.
# Usage: scripts/gpu_check.sh --build        (on the build machine)
#        scripts/gpu_check.sh [--quick] [--max-mib N] [--no-bench] (on the GPU machine; the tools from
#        $UZIP_GPU_TOOLS, default .carry/gpu)
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--build" ]; then
  ./scripts/build.sh || exit 1
  mkdir -p .carry/gpu
  cp build/libuzip.so .carry/gpu/
  for t in gpu_check gpu_bench gpu_fuse_bench gpu_enc_chain; do
    nvcc -O2 -std=c++17 -Icuda -Inccl "tests/native/$t.cu" -o ".carry/gpu/$t" -L.carry/gpu -luzip -Xlinker -rpath,'$ORIGIN' ||
      { echo "error: tests/native/$t.cu did not build" >&2; exit 1; }
  done
  echo "built .carry/gpu"
  exit 0
fi
OUTD=${OUT:-bench/out}
mkdir -p "$OUTD"
export NCCL_NVLS_ENABLE=0
G=${UZIP_GPU_TOOLS:-.carry/gpu}
QUICK=""; MAXMIB=4096; BENCH=1
while [ $# -gt 0 ]; do
  case "$1" in --quick) QUICK=--quick ;; --max-mib) MAXMIB=$2; shift ;; --no-bench) BENCH=0 ;; esac
  shift
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUTD/gpu.txt"
rc=0
timeout 240 $G/gpu_check $QUICK 2>&1 | tee "$OUTD/check.log" || rc=1
echo "== compute-sanitizer memcheck (quick run)"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $G/gpu_check --tiny 2>&1 | tail -20 | tee "$OUTD/memcheck.log" || rc=1
echo "== compute-sanitizer racecheck (quick run)"
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $G/gpu_check --tiny 2>&1 | tail -8 | tee "$OUTD/racecheck.log" || rc=1
[ $BENCH = 1 ] || exit $rc
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
timeout 300 $G/gpu_bench "$OUTD/bench.json" --max-mib "$MAXMIB" --commit "$COMMIT" \
  --cmd "scripts/gpu_check.sh --max-mib $MAXMIB" 2>&1 | tee "$OUTD/bench.log" || rc=1
exit $rc
