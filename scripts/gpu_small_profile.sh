#!/usr/bin/env bash
# Where a small codec call's time goes, one H200 (tools from scripts/gpu_prof_build.sh, carried as
# .carry-run/prof and .carry-run/li): stage clocks at 64 KiB, 1 MiB and 16 MiB (bf16, default blocks), and
# ncu's duration and launch figures of one compress and one decompress at 64 KiB (2^10 and 2^13 blocks)
# and 1 MiB (2^13). Usage (device): bash scripts/gpu_small_profile.sh
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 60 .carry-run/prof/gpu_stages 1 64 1024 16384 > "$R/stages_small.txt" 2>&1
cat "$R/stages_small.txt" | head -60
NCU="ncu --clock-control none --section SpeedOfLight --section LaunchStats --section Occupancy --metrics sm__cycles_active.avg,sm__cycles_active.max,gpu__time_duration.sum"
for cfg in "64 10" "64 13" "1024 13"; do
  set -- $cfg
  for k in compress decompress; do
    timeout 60 $NCU -k regex:^$k -c 1 --launch-skip 3 .carry-run/li/gpu_bench /tmp/x.json --dtypes 1 \
      --sizes-kib $1 --log2 $2 --sms 0 --reps 1 > "$R/ncu_${k}_${1}k_l$2.txt" 2>&1
    echo "== ncu $k ${1} KiB log2 $2"
    grep -E "Duration|Elapsed Cycles|sm__cycles_active|Grid Size|Block Size|Registers Per|Dynamic Shared|Achieved Occupancy|Waves Per SM" "$R/ncu_${k}_${1}k_l$2.txt" | head -14
  done
done
pack
