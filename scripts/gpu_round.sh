#!/usr/bin/env bash
# One GPU call after a kernel change (~2.5 min on nvidia-h200-x2): the default kernel variant's
# bit-exactness, throughput against the packed baseline and memcheck (scripts/gpu_variants.sh 0), then the
# closing bundle (scripts/gpu_final.sh: codec CLI with real weights, P2P, collectives).
set -u
bash scripts/gpu_variants.sh 0 2>&1 | grep -v '^xz'
bash scripts/gpu_final.sh
