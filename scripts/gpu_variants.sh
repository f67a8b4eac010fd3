#!/usr/bin/env bash
# Kept for the commands recorded in earlier results (bench/results/*/README.md): the same comparison of
# kernel variants against the packed baseline is scripts/gpu_latency_ab.sh, which covers these sizes and
# more. Usage (device): bash scripts/gpu_variants.sh [VARIANTS] (MEMCHECK=0 skips the memcheck run)
exec bash scripts/gpu_latency_ab.sh "$@"
