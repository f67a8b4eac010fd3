#!/usr/bin/env bash
# One H200 call: the compress kernel's loads with more bytes in flight (the histogram pass 64 bytes per lane,
# the stage copies 16 / 8 chunks) and the decoder's vector-path step with 32-bit shared addresses
# (lds_u32 / lds_u16 in cuda/gpu_decode.cuh), this build (.carry-run/gpu) against the one before it
# (.carry-run/old, 2954a92), same call; then ncu source counters of both kernels (.carry-run/li):
#   1. gpu_check (GPU bytes = CPU bytes, cross-decoding, corrupt streams);
#   2. gpu_bench, Gaussian bf16 / fp16 / fp32, default layout, 16 MiB, 256 MiB and 1 GiB, new and old
#      alternating, twice; bf16 split layout and bf16 weights once each;
#   3. ncu --set full with SASS per line: compress and decompress, bf16, default layout, 256 MiB.
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data PACK_LI=1 PACK_DATA_DTYPES=bf16 bash
# scripts/pack_device.sh` here with the earlier build in .carry/old): bash scripts/gpu_copies_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -3
pack
S=16384,262144,1048576
for r in 1 2; do
  for b in gpu old; do
    gpu_bench_run "g_${b}_r$r" $b -- --dtypes 1,2,3 --flags 0 --sizes-kib $S --sms 0 --reps 10
  done
  pack
done
for b in gpu old; do
  gpu_bench_run "split_$b" $b -- --dtypes 1 --flags 2 --sizes-kib $S --sms 0 --reps 10
  gpu_bench_run "w_bf16_$b" $b -- --dtypes 1 --flags 0 --sizes-kib $S --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
done
pack
NCU="ncu --clock-control none --set full --import-source yes"
for k in compress decompress; do
  timeout 150 $NCU -k regex:^$k -c 1 --launch-skip 3 -f -o "$R/ncu_$k" .carry-run/li/gpu_bench /tmp/x.json \
    --dtypes 1 --flags 0 --sizes-kib 262144 --sms 0 --reps 1 > "$R/ncu_${k}_run.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page details > "$R/ncu_${k}_details.txt" 2>&1
  ncu -i "$R/ncu_$k.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${k}_sass.csv" 2>&1
  rm -f "$R/ncu_$k.ncu-rep"; xz -T4 "$R/ncu_${k}_sass.csv"
  echo "== ncu $k"
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Active Warps Per|Registers Per|Executed Instructions  " "$R/ncu_${k}_details.txt" | head -12
  pack
done
