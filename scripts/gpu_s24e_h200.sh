#!/usr/bin/env bash
# Session 24, call 4: why call 1's fused word store (new3 = exp/s24-stcorr) gains at 16 MiB and loses at
# 1 GiB against main (old = 8b1bccd's codec): ncu of one bf16 split compression each at 16 MiB and 1 GiB
# (warp states, scheduler, memory workload: DRAM bytes, L2 hits), then the two builds' speed again in the
# same call. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for sz in 16384 1048576; do
  for d in old new3; do
    timeout 150 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum \
      -k "regex:^compress_kernel" -c 1 --launch-skip 3 .carry-run/$d/gpu_bench /tmp/x.json --dtypes 1 --flags 2 \
      --sizes-kib $sz --sms 0 --reps 1 > "$R/ncu_${d}_$sz.txt" 2>&1
    echo "== ncu $d bf16 split $sz KiB rc=$?"
    grep -E "Duration|Issue Slots Busy|Issued Warp|Eligible Warps|Active Warps Per|No Eligible|dram__bytes|lts__t_sectors|Stall|Memory Throughput|L2 Hit" "$R/ncu_${d}_$sz.txt" | head -30
    pack
  done
done
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new3" --dtypes 1 --flags 2 --sizes-kib "16384 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
