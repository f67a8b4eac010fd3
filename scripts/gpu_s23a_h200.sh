#!/usr/bin/env bash
# Prepared in session 22, not yet run: where the encoder's DRAM traffic beyond the least goes (session 22's
# ncu of bf16 split 256 MiB: DRAM 2.31 TB/s over 322 us, ~740 MB against 268 MB in + ~178 MB out, L2 hit
# 41%; docs/GPU_CODEC_NOTES.md, twenty-second section). Per layout and block size (2^14, the default at this
# size, and 2^13, which halves the 32 KB block each resident warp reads again after its histogram pass):
# DRAM bytes read and written and the L2's read hits and misses for one compression (ncu, a few metrics),
# then the compress A/B of both block sizes (median of 10, ratio in the JSON). This build only; carry
# [".carry-run"] after PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
for fl in 2 0; do
  for lg in 14 13; do
    timeout 120 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
      .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags $fl --log2 $lg --sizes-kib 262144 --sms 0 --reps 1 \
      > "$R/ncu_traffic_f${fl}_log$lg.txt" 2>&1
    echo "== ncu flags $fl log2 $lg"; grep -E "dram__|lts__|gpu__time" "$R/ncu_traffic_f${fl}_log$lg.txt"
  done
  pack
done
echo "(${SECONDS}s)"
for lg in 14 13; do
  gpu_bench_run "log${lg}_d1_f2" gpu -- --dtypes 1 --flags 2 --log2 $lg --sizes-kib "262144 1048576" --sms 0 --reps 10
  gpu_bench_run "log${lg}_d1_f0" gpu -- --dtypes 1 --flags 0 --log2 $lg --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
