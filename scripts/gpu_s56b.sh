#!/usr/bin/env bash
# Session 56, one GPU, for a call of the session's last ~180 device seconds: gpu_s56a.sh's gate first, then its
# benches with the time left. new4/ = branch exp/s56-enc-loads (exp/s55-dec-fill's decode-table fill plus the
# encoder's once-per-block shared loads before their stores); gpu/ = main. 1. gpu_check --quick and --lean of new4
# and memcheck of its --tiny (variant_checks). 2. While the clock is under END - 30 s: bf16 split small and then
# large, main and new4, two rounds (small_large_rounds; in session 56 a guard of END - 60 s kept them from
# starting at 91 s, though both took 23 s in the next call). Carry [".carry-run"] (gpu/, new4/; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
END=${END:-160}
tail -1 "$R/gpu.txt"
variant_checks new4
pack; echo "(${SECONDS}s)"
small_large_rounds fill "gpu new4" $((END - 30))
pack; echo "(${SECONDS}s)"
