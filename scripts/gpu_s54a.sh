#!/usr/bin/env bash
# Session 54, one GPU: the codec kernels' end, two forms against main. new3 (session 53's, unmeasured): every warp
# adds to the finished-warp count with atom.release.gpu, only the warp that takes the last count runs
# fence.acq_rel.gpu. new4: the count and the checksum sum in one relaxed 64-bit atomic with no fence in the common
# warp; a fence only in the warp that writes the stream's total, a decoder warp with an error or the ticket at
# nblocks, and the last warp. gpu/: main (fence.sc, atomic, fence.sc).
# 1. Two rounds (reversed) of split bf16 at 64 KiB-64 MiB (20 calls back to back) and at 256 MiB-1 GiB; one of
# fp32 split 1-16 MiB. 2. gpu_check --quick and --lean of new4, memcheck of --tiny. 3. The same of new3 if time is
# left (logs check_new3*, san_memcheck_new3.log). 4. On an H200 only: main's fp32 split rows (256 MiB-4 GiB).
# new3 = main + docs/experiments/end-count-release-acquire-in-last-warp.diff; new4 = branch exp/s54-packed
# (docs/experiments/end-count-packed-relaxed.diff). Carry [".carry-run"] (gpu/, new3/, new4/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
end_form_ab "gpu new3 new4" new4
if [ $SECONDS -lt 380 ]; then
  mv "$R/san_memcheck.log" "$R/san_memcheck_new4.log"
  variant_checks new3
  mv "$R/san_memcheck.log" "$R/san_memcheck_new3.log"
  pack; echo "(${SECONDS}s)"
fi
fp32_main_h200 420
pack; echo "(${SECONDS}s)"
