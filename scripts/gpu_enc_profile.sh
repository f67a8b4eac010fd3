#!/usr/bin/env bash
# Where an encode step's cycles go, one H200 (tools from scripts/gpu_prof_build.sh carried as
# .carry-run/prof and .carry-run/li, and .carry/gpu/gpu_enc_chain of scripts/gpu_check.sh --build copied
# into .carry-run/gpu): the chain microbenchmark
# (tests/native/gpu_enc_chain.cu) at 256 and 512 steps; stage clocks of bf16 compress, default and split
# layouts, 1 MiB to 256 MiB; ncu SASS counters of one split-layout compress at 256 MiB and at 1 MiB; the
# compress kernel's SASS when cuobjdump is on the machine. Usage (device): bash scripts/gpu_enc_profile.sh
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
for t in 512 256; do
  timeout 60 .carry-run/gpu/gpu_enc_chain $t 20 > "$R/chain_T$t.txt" 2>&1; cat "$R/chain_T$t.txt"
done
pack
for fl in 0 2; do
  UZIP_STAGES_FLAGS=$fl timeout 90 .carry-run/prof/gpu_stages 1 1024 16384 262144 > "$R/stages_f$fl.txt" 2>&1
  echo "== stages flags $fl"; grep -v '^  dec' "$R/stages_f$fl.txt" | head -40
done
pack
for sz in 262144 1024; do
  ncu_kernel compress $sz 2 c$sz
  pack
done
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
echo "cuobjdump: ${CUOBJ:-none}"
if [ -n "$CUOBJ" ]; then "$CUOBJ" -sass .carry-run/gpu/libuzip.so | xz -T4 > "$R/libuzip_sass.txt.xz"; fi
pack
