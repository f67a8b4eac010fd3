#!/usr/bin/env bash
# Session 24, call 5: the encoder's L2 traffic by kind (main's build, bf16 split, 256 MiB and 1 GiB): L2
# requests and sectors of loads and stores from the SMs, shared-memory bank conflicts, L2 throughput. To
# weigh staging the coded words in shared memory and writing them as vectors (today one predicated 2-byte
# store per step per warp) against the re-read of each block. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex.sum
M=$M,lts__t_sectors.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
M=$M,smsp__inst_executed_op_global_st.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_shared_ld.sum
M=$M,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
for sz in 262144 1048576; do
  timeout 150 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
    .carry-run/old/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib $sz --sms 0 --reps 1 > "$R/ncu_l2_$sz.txt" 2>&1
  echo "== ncu L2 traffic bf16 split $sz KiB rc=$?"; grep -E "lts__|l1tex__|smsp__|dram__|gpu__|ERROR" "$R/ncu_l2_$sz.txt"
  pack
done
echo "(${SECONDS}s)"
