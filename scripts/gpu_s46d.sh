#!/usr/bin/env bash
# Session 46, one GPU: gpu_s46c's prefetch with evict_last (branch exp/s46-next-prefetch, UZIP_EXP_NEXT 5 = the next
# block's lines prefetched with prefetch.global.L2::evict_last, 6 = its first half), against modes 0 (main's
# tickets) and 2 (the plain prefetch); bf16 split 256 MiB / 1 GiB / 4 GiB, two rounds; ncu of one 1 GiB
# compression in modes 5 and 6. Carry [".carry-run"]; bench/results/ out of the tree for the call.
# (Through gpu_s46c.sh since the session's end: the same steps.)
MODES="0 2 5 6" NCU_MODES="5 6" exec bash scripts/gpu_s46c.sh
