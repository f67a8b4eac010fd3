#!/usr/bin/env bash
# Session 46, one GPU: gpu_s46b's loss taken apart (branch exp/s46-next-prefetch with UZIP_EXP_NEXT, built in gpu/):
# 0 tickets as main; 1 the next ticket taken once a block is published, no prefetch; 2 that and the next block
# prefetched to the L2 at a 128-byte stride (gpu_s46b's form); 3 at a 32-byte stride; 4 its first quarter at 32.
# bf16 split 256 MiB / 1 GiB / 4 GiB, whole chip, two rounds; ncu of one 1 GiB compression in modes 0, 1, 2 (DRAM
# bytes, L2 read hits, issue). Carry [".carry-run"]; bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
A=(-- --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --max-mib 4096)
for r in 1 2; do
  for m in 0 1 2 3 4; do gpu_bench_run "next${m}_r$r" gpu UZIP_EXP_NEXT=$m "${A[@]}"; done
  pack; echo "(${SECONDS}s)"
done
M=dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
M=$M,sm__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum
for m in 0 1 2; do
  UZIP_EXP_NEXT=$m timeout 100 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
    .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib 1048576 --sms 0 --reps 1 --max-mib 1024 \
    > "$R/ncu_next$m.txt" 2>&1
  echo "== ncu next $m rc=$?"; grep -E "dram__|gpu__|sm__|lts__" "$R/ncu_next$m.txt"
  pack
done
echo "(${SECONDS}s)"
