#!/usr/bin/env bash
# Profiles the GPU codec on one H200 (device side; builds from scripts/gpu_prof_build.sh copied into
# .carry-run/li and .carry-run/prof): per-stage cycles (bf16 1 MiB and 256 MiB) and ncu --set full of one
# compress and one decompress launch at 256 MiB bf16 (details page and per-instruction SASS counters).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
timeout 60 .carry-run/prof/gpu_stages 1 1024 262144 > "$R/stages_bf16.txt" 2>&1
NCU="ncu --clock-control none --set full --import-source yes"
for k in compress decompress; do
  timeout 100 $NCU -k regex:^$k -c 1 --launch-skip 3 -f -o "$R/ncu_$k" .carry-run/li/gpu_bench /tmp/x.json --dtypes 1 \
    --sizes-kib 262144 --sms 0 --reps 1 > "$R/ncu_${k}_run.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page details > "$R/ncu_${k}_details.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${k}_sass.csv" 2>&1
  rm -f "$R/ncu_$k.ncu-rep"
done
pack
grep -v '^  dec' "$R/stages_bf16.txt"
for k in compress decompress; do
  echo "== ncu $k"; grep -E "Duration|Warp Cycles Per Issued|Executed Instructions  |Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps" "$R/ncu_${k}_details.txt" | head -24
done
