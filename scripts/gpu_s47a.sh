#!/usr/bin/env bash
# Session 47, one GPU: main's build (gpu/) checked, and set in one call against main without the two-byte
# histogram pass's next-round prefetch (old/: session 46's merge undone), that prefetch two and three rounds
# ahead (new2/, new3/: branch exp/s47-hist-pf-dist, -DUZIP_EXP_HIST_PF_DIST=2 / 3) and the prefetch for fp8
# too (new1/: branch exp/s47-fp8-prefetch, 64 bytes a lane, the next 2 KB round).
# 1. gpu_check --quick of gpu/ and memcheck of its --tiny cases (CHECK=0 skips). 2. bf16 split 1 MiB-4 GiB, old/
# gpu/ new2/ new3/, ROUNDS (default 2) rounds, even rounds in reverse order (DIRS overrides the builds). 3. fp8 (default layout) 16 MiB-1 GiB,
# gpu/ against new1/, two rounds; fp16 split and bf16 default layout, old/ gpu/ new2/, once (FP8=0 skips 3).
# Carry [".carry-run"]; bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
quick_memcheck
dirs=${DIRS:-old gpu new2 new3}
for r in $(seq "${ROUNDS:-2}"); do
  # Even rounds take the builds in reverse order (what runs first in a call sometimes runs slower).
  [ $((r % 2)) = 0 ] && order=$(echo "$dirs" | tr ' ' '\n' | tac | tr '\n' ' ') || order=$dirs
  gpu_bench_dirs "bf16_split_r$r" "$order" --dtypes 1 --flags 2 \
    --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
  pack; echo "(${SECONDS}s)"
done
[ "${FP8:-1}" = 0 ] && exit 0
a=(--sizes-kib "16384 262144 1048576" --sms 0 --reps 10 --max-mib 1024)
for r in 1 2; do gpu_bench_dirs "fp8_r$r" "gpu new1" --dtypes 4 --flags 0 "${a[@]}"; done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs fp16_split "old gpu new2" --dtypes 2 --flags 2 "${a[@]}"
gpu_bench_dirs bf16_default "old gpu new2" --dtypes 1 --flags 0 "${a[@]}"
pack; echo "(${SECONDS}s)"
