#!/usr/bin/env bash
# Session 17, first call: (1) the CUDA disassembler tools of the GPU machine, xz-compressed, so that SASS can
# be read on the build machine (it has nvcc and ptxas only; scripts/sass_kernel.sh uses them); (2) ncu --set full of the lane-stream encoder
# and decoder (bf16 256 MiB, lane blocks of 2^14), whose per-instruction counters no session has taken since
# they moved to cp.async rings; (3) the interleaved split layout at 2^15-element blocks against 2^14 (bf16,
# fp32; 256 MiB and 1 GiB), last measured in session 6 with older kernels.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for t in cuobjdump nvdisasm; do
  p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
  echo "$t: $p $(ls -l "$p" 2>/dev/null | awk '{print $5}')"
  [ -n "$p" ] && { ldd "$p" | head -5; xz -T8 -6 -c "$p" > "$OUT/$t.xz"; ls -l "$OUT/$t.xz"; }
done
nvcc --version 2>/dev/null | tail -2
echo "($SECONDS s)"
export NCU_TOOLS=gpu
ncu_kernel lanes_compress_kernel 262144 6 lanes_enc --log2 14; pack
ncu_kernel decompress_kernel 262144 6 lanes_dec --log2 14; pack
echo "($SECONDS s)"
for d in 1 3; do
  for lg in 14 15; do
    gpu_bench_run "blk${lg}_d$d" gpu -- --dtypes $d --flags 2 --log2 $lg --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
  pack
done
echo "($SECONDS s)"
