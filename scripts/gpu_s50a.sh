#!/usr/bin/env bash
# Session 50, one GPU of either kind. 1. A plain copy's L2 load (the forty-ninth section's open question): the
# copy probe (tests/native/copy_probe.cu, built into .carry-run/probe/, xz) timed at 256 MiB, 1 and 4 GiB against
# cudaMemcpyAsync, then ncu's breakdown of lts__throughput for its kernel at 1 GiB, the same metrics that
# session 49 read for the compress kernels (busiest unit: the fabric between the L2's partitions, 78-85%).
# 2. gpu_s49b.sh: fp32 split decode of session 35's build (old/) against main (gpu/), two rounds.
# Carry [".carry-run"] (gpu/, old/, probe/, deno.xz); bench/results/ out of the tree.
set -u
# (Also brings cuobjdump and nvdisasm back: sass_tools_out.)
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
sass_tools_out
for mib in 256 1024 4096; do .carry-run/probe/copy_probe $mib 10 | tee -a "$R/copy_probe.txt"; done
m=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
m=$m,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
timeout 100 ncu --clock-control none --metrics "$m" -k regex:^copy_probe -c 1 --launch-skip 3 \
  .carry-run/probe/copy_probe 1024 3 > "$R/ncu_bd_copy.txt" 2>&1
echo "== ncu copy rc=$?"; grep -E "__" "$R/ncu_bd_copy.txt" | head -60
pack; echo "(${SECONDS}s)"
bash scripts/gpu_s49b.sh
