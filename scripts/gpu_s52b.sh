#!/usr/bin/env bash
# Session 52, one GPU: where the pair encoder's time goes after session 52's trims (gpu_s52a.sh measured them
# level). ncu --set full of one bf16 split 1 GiB compression (Gaussian, whole chip): the pair kernel of
# .carry-run/new2 (the trims) and of gpu/ (main), and main's byte kernel (flags 2) as the yardstick; the details
# page (issue, stall reasons, occupancy, instruction counts) and the SASS page with stall samples per
# instruction (csv, xz). Carry [".carry-run"] (gpu/, new2/).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
# ncu_full TAG DIR KERNEL_REGEX FLAGS
ncu_full() {
  local tag=$1 dir=$2 k=$3 fl=$4
  timeout 150 ncu --clock-control none --set full -k "regex:$k" -c 1 --launch-skip 3 -f -o "$R/ncu_$tag" \
    ".carry-run/$dir/gpu_bench" /tmp/x.json --dtypes 1 --flags "$fl" --sizes-kib 1048576 --sms 0 --reps 1 \
    --max-mib 1024 > "$R/ncu_${tag}_run.txt" 2>&1
  echo "ncu $tag rc=$?"
  ncu -i "$R/ncu_$tag.ncu-rep" --page details > "$R/ncu_${tag}_details.txt" 2>&1
  ncu -i "$R/ncu_$tag.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${tag}_sass.csv" 2>&1
  rm -f "$R/ncu_$tag.ncu-rep"; xz -T8 -f "$R/ncu_${tag}_sass.csv"
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Achieved Active Warps|Registers Per|Executed Instructions  |Stall" \
    "$R/ncu_${tag}_details.txt" | head -16
  pack
}
ncu_full pairs_new2 new2 pairs_compress_kernel 10
ncu_full pairs_main gpu pairs_compress_kernel 10
ncu_full bytes_main gpu "^compress_kernel" 2
echo "(${SECONDS}s)"
