#!/usr/bin/env bash
# Session 48, one GPU (an H100 if that is what comes): fp32 and the histogram pass's prefetch, gpu_s47d.sh over three
# builds and up to 4 GiB. gpu/ = main (fp32 without it), new1/ = main prefetching one round ahead for every dtype
# (`if constexpr (true)`), new2/ = main with fp32 prefetching two rounds ahead (branch exp/s48-fp32-pf2; fp32's
# rounds hold half a two-byte round's elements). fp32 split 16 MiB-4 GiB, two rounds (the second in reverse order),
# then ncu of gpu/ and new1/ at 1 GiB unless the call has run NCU_MAX s (default 420). Carry [".carry-run"];
# bench/results/ out of the tree.
DIRS="gpu new1 new2" SIZES="16384 262144 1048576 4194304" NCU_MAX=${NCU_MAX:-420} exec bash scripts/gpu_s47d.sh
