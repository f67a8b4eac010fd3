#!/usr/bin/env bash
# Session 53, one GPU: the codec kernels' end, second form. new3: every warp adds to the finished-warp count
# with atom.release.gpu and only the warp that takes the last count runs an acquire fence (fence.acq_rel.gpu);
# gpu/: main (fence.sc, atomic, fence.sc). (Session 53's first form, atom.acq_rel.gpu in every warp, ran 0.2-0.5
# us a small call faster back to back in 1-fence but compressed 1 GiB 0.9% slower in both rounds.)
# 1. Two rounds (reversed) of split bf16 at 64 KiB-64 MiB (20 calls back to back) and at 256 MiB-1 GiB; one of
# fp32 split 1-16 MiB. 2. gpu_check --quick and --lean of new3, memcheck of --tiny (after the benches: the
# session's last device seconds). 3. On an H200 only:
# main's fp32 split rows (256 MiB-4 GiB), owed to the README since session 50.
# new3 is main with docs/experiments/end-count-release-acquire-in-last-warp.diff applied (branch exp/s53-fence).
# Carry [".carry-run"] (gpu/, new3/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
end_form_ab "gpu new3" new3
fp32_main_h200 200
pack; echo "(${SECONDS}s)"
