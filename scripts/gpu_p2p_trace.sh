#!/usr/bin/env bash
# A timeline of compressed P2P on 2 GPUs (NCCL_P2P_DISABLE=1, bf16 256 MiB): nsys traces the P2P bench's
# ranks; the GPU trace (kernels and copies with stream, start, end) comes back as CSV (gzip).
set -u
source scripts/device_env.sh
NSYS=$(command -v nsys || find /usr/local /opt /usr/bin -name nsys -type f 2>/dev/null | head -1)
echo "nsys: ${NSYS:-none}"
[ -n "$NSYS" ] || exit 3
NCCL_P2P_DISABLE=1 timeout 150 "$NSYS" profile -t cuda --trace-fork-before-exec=true -o "$R/p2p" -f true \
  deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts --sizes 256MiB --dtypes bf16 --datasets gaussian \
  --modes never,always --reps 3 --out /tmp/o > "$R/nsys_run.log" 2>&1
echo "profile rc=$?"; tail -5 "$R/nsys_run.log"
for f in "$R"/p2p*.nsys-rep; do
  b=$(basename "$f" .nsys-rep)
  timeout 120 "$NSYS" stats --report cuda_gpu_trace --format csv -o "$R/$b" "$f" > /dev/null 2>&1
  ls -la "$R" | grep "$b"
done
gzip -9 "$R"/*.csv 2>/dev/null
rm -f "$R"/*.nsys-rep "$R"/*.sqlite
ls -la "$R"
pack
