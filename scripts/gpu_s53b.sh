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
small_large_rounds bf16 "gpu new3"
gpu_bench_dirs fp32 "gpu new3" --dtypes 3 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 20 --max-mib 64
pack; echo "(${SECONDS}s)"
variant_checks new3
pack; echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt" && [ $SECONDS -lt 200 ]; then
  gpu_bench_rounds fp32_main gpu --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
fi
pack; echo "(${SECONDS}s)"
