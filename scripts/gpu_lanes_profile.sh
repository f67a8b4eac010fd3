#!/usr/bin/env bash
# ncu profiles (--set full, SASS source counters) of the lane-stream kernels on one H200: one bf16 call of
# 256 MiB of lanes_compress_kernel and of lanes_decompress_kernel, 2^14 blocks.
# Pack as for gpu_lanes_h200.sh; run with carry [".carry-run"]. KIB, LOG2 override the size and block.
set -u
source scripts/device_env.sh
for k in lanes_compress lanes_decompress; do
  timeout 240 ncu --clock-control none --set full --import-source no -k "regex:$k" -c 1 \
    --launch-skip 3 -f -o "$R/ncu_$k" .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags 6 \
    --log2 "${LOG2:-14}" --sizes-kib "${KIB:-262144}" --sms 0 --reps 1 > "$R/ncu_${k}_run.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page details > "$R/ncu_${k}_details.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${k}_sass.csv" 2>&1
  rm -f "$R/ncu_$k.ncu-rep"; xz -T4 -f "$R/ncu_${k}_sass.csv"
  echo "== ncu $k"
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Achieved Active Warps|Theoretical Occupancy|Registers Per|Executed Instructions  |L2 Hit|DRAM Throughput|Mem Busy" \
    "$R/ncu_${k}_details.txt" | head -16
  pack
done
