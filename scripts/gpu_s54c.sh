#!/usr/bin/env bash
# Session 54, one GPU (the session's last device seconds): the look-back's polls and publications as
# ld/st.relaxed.gpu (new5/) instead of volatile accesses, which ptxas emits as LDG/STG.E.64.STRONG.SYS (system scope),
# against main (gpu/). The 16 MiB compression's first use of the poll's load held 289 of 3,980 ncu samples
# (3-new3-ncu); every reader and writer of the look-back words is on one GPU, so GPU scope is enough. Then the
# TypeScript GPU suites on main after the merge of the kernels' end in one relaxed atomic (gpu/, built by
# scripts/gpu_check.sh --build at 470fd1f: the codec object has the SASS of gpu_s54a.sh's new4/).
# 1. Two rounds (reversed) of split bf16 at 64 KiB-64 MiB (20 calls back to back) and at 256 MiB-1 GiB. 2. The
# TypeScript GPU suites (main). 3. gpu_check --quick and --lean of new5, memcheck of --tiny. 4. On an H200 with time
# left: main's fp32 split rows 256 MiB-4 GiB (owed to the README since session 50).
# new5 = main + docs/experiments/lookback-relaxed-gpu.diff. Carry [".carry-run"] (gpu/, new5/, deno.xz);
# bench/results/ out of the tree (64 MiB).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small_large_rounds lb "gpu new5"
deno_gpu_suites
echo "(${SECONDS}s)"
variant_checks new5
pack; echo "(${SECONDS}s)"
if grep -q H200 "$R/gpu.txt" && [ $SECONDS -lt 240 ]; then
  gpu_bench_rounds fp32_h200 "gpu gpu" --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096
fi
pack; echo "(${SECONDS}s)"
