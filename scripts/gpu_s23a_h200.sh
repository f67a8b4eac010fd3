#!/usr/bin/env bash
# Prepared in session 22, not yet run: where the encoder's DRAM traffic beyond the least goes (session 22's
# ncu of bf16 split 256 MiB: DRAM 2.31 TB/s over 322 us, ~740 MB against 268 MB in + ~178 MB out, L2 hit
# 41%; docs/GPU_CODEC_NOTES.md, twenty-second section). Per layout and block size (2^14, the default at this
# size, and 2^13, which halves the 32 KB block each resident warp reads again after its histogram pass):
# DRAM bytes read and written and the L2's read hits and misses for one compression (ncu, a few metrics),
# then the compress A/B of both block sizes (median of 10, ratio in the JSON). Session 23 added new1/: the
# branch exp/s23-l2hint's library (L2 eviction policies: the histogram pass's loads evict_last, the coding
# pass's loads and the output's stores evict_first), measured the same way beside this build (main). Carry
# [".carry-run"] after PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh and new1's library.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
for fl in 2 0; do
  for lg in 14 13; do
    for dir in gpu new1; do
      timeout 120 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
        .carry-run/$dir/gpu_bench /tmp/x.json --dtypes 1 --flags $fl --log2 $lg --sizes-kib 262144 --sms 0 --reps 1 \
        > "$R/ncu_traffic_${dir}_f${fl}_log$lg.txt" 2>&1
      echo "== ncu $dir flags $fl log2 $lg"; grep -E "dram__|lts__|gpu__time" "$R/ncu_traffic_${dir}_f${fl}_log$lg.txt"
    done
  done
  pack
done
echo "(${SECONDS}s)"
for lg in 14 13; do
  gpu_bench_dirs "log${lg}_d1_f2" "gpu new1" --dtypes 1 --flags 2 --log2 $lg --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_dirs "log${lg}_d1_f0" "gpu new1" --dtypes 1 --flags 0 --log2 $lg --sizes-kib "262144 1048576" --sms 0 --reps 10
  pack
done
echo "(${SECONDS}s)"
gpu_bench_dirs r2_d1_f2 "new1 gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r2_d3_f2 "new1 gpu" --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r2_d4_f2 "new1 gpu" --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
