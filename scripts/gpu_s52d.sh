#!/usr/bin/env bash
# Session 52, one GPU: a stall hunt over main's kernels after gpu_s52b.sh found the pair encoder's word copy
# waiting one load at a time. ncu --set full (details page; SASS page with stall samples per instruction, csv xz)
# of main's byte coding, bf16 split (whole chip, Gaussian): compression and decompression at 1 MiB, 16 MiB and
# 1 GiB, fp32 compression at 1 GiB, and the pair decoder at 1 GiB. Carry [".carry-run"] (gpu/: main's build).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
# ncu_one TAG KERNEL_REGEX DTYPE FLAGS KIB: the fourth launch of the kernel in gpu_bench's run of that size.
ncu_one() {
  local tag=$1 k=$2 dt=$3 fl=$4 kib=$5
  timeout 120 ncu --clock-control none --set full -k "regex:$k" -c 1 --launch-skip 3 -f -o "$R/ncu_$tag" \
    .carry-run/gpu/gpu_bench /tmp/x.json --dtypes "$dt" --flags "$fl" --sizes-kib "$kib" --sms 0 --reps 1 \
    --max-mib 1024 > "$R/ncu_${tag}_run.txt" 2>&1
  echo "ncu $tag rc=$?"
  ncu -i "$R/ncu_$tag.ncu-rep" --page details > "$R/ncu_${tag}_details.txt" 2>&1
  ncu -i "$R/ncu_$tag.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${tag}_sass.csv" 2>&1
  rm -f "$R/ncu_$tag.ncu-rep"; xz -T8 -f "$R/ncu_${tag}_sass.csv"
  grep -E "^  [a-z_:]*kernel|Duration|Issue Slots Busy|Executed Instructions  " "$R/ncu_${tag}_details.txt" | head -5
  pack
}
ncu_one c16m "^compress_kernel" 1 2 16384
ncu_one d16m "^decompress_kernel" 1 2 16384
ncu_one c1m "^compress_kernel" 1 2 1024
ncu_one d1m "^decompress_kernel" 1 2 1024
ncu_one d1g "^decompress_kernel" 1 2 1048576
ncu_one pd1g "^decompress_kernel" 1 10 1048576
ncu_one f32c1g "^compress_kernel" 3 2 1048576
echo "(${SECONDS}s)"
