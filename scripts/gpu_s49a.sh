#!/usr/bin/env bash
# Session 49, one GPU of either kind. 1. What fills the L2 in main's compress kernels: ncu's breakdown of
# lts__throughput (and of the memory and compute throughputs) for one 1 GiB split compression each of fp32 (the
# staged kernel: lts__throughput 82% of peak on the H100, session 49's first call) and bf16, to $R/ncu_bd_TAG.txt.
# 2. gpu_s47b.sh: main's state (fp32 / fp16 / fp8 / bf16 default 16 MiB-4 GiB, then the codec CLI's split sweep,
# CLI_T s: 240 on an H200, issue #3's card, else 150). On an H200 stage 2 runs first.
# Carry [".carry-run"] (gpu/, deno.xz); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
breakdowns() {
  local m=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
  for c in "fp32 3" "bf16 1"; do
    set -- $c
    timeout 100 ncu --clock-control none --metrics "$m" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
      .carry-run/gpu/gpu_bench /tmp/x.json --dtypes "$2" --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 \
      --max-mib 1024 > "$R/ncu_bd_$1.txt" 2>&1
    echo "== ncu breakdown $1 rc=$?"; grep -E "Kernel|compress_kernel|__" "$R/ncu_bd_$1.txt" | head -40
    pack; echo "(${SECONDS}s)"
  done
}
if grep -q H200 "$R/gpu.txt"; then
  CLI_T=${CLI_T:-240} bash scripts/gpu_s47b.sh
  breakdowns
else
  breakdowns
  CLI_T=${CLI_T:-150} bash scripts/gpu_s47b.sh
fi
