#!/usr/bin/env bash
# Session 23, call 2. Two trials from session 22's ncu of the encoder (bf16 256 MiB,
# bench/results/h200-2026-12-03T1215-session22/3-enc-select), against this build (main) in the same call:
# - new1/ (branch exp/s23-prefetch): the histogram pass waits on DRAM (long_sb, ~70% of its stall samples),
#   so on taking block t a warp asks the L2 to fetch block t + d (cp.async.bulk.prefetch, 8 lanes an eighth
#   each), d = UZIP_GPU_ENC_PREFETCH eighths of the resident warps (0: none). Blocks are handed out in order,
#   so block t + d is taken about d / warps of a round later by some warp.
# - new2/ (branch exp/s23-pend, on new1): the deferred blocks' plans in shared memory instead of a local
#   array (three LDL in finish_deferred held ~2% of the stall samples); prefetch off unless set.
# Then ncu DRAM bytes / L2 read hits, gpu_check --quick, memcheck and racecheck of new2 (its shared layout
# changed), memcheck of a prefetching call. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for k in 0 8 10 12 0 9 10 14; do
  gpu_bench_run "pf${k}_d1_f2" new1 UZIP_GPU_ENC_PREFETCH=$k -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" \
    --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "gpu new2" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs r1_d1_f0 "gpu new2" --dtypes 1 --flags 0 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "gpu new2" --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "gpu new2" --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "gpu new2" --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
gpu_bench_run r1_d1_f2_s32_gpu gpu -- --dtypes 1 --flags 2 --sizes-kib "262144" --sms 32 --reps 10
gpu_bench_run r1_d1_f2_s32_new2 new2 -- --dtypes 1 --flags 2 --sizes-kib "262144" --sms 32 --reps 10
pack
echo "(${SECONDS}s)"
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum
for run in "new1 0" "new1 10" "new2 0"; do
  set -- $run
  UZIP_GPU_ENC_PREFETCH=$2 timeout 120 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 \
    --launch-skip 3 .carry-run/$1/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib 262144 --sms 0 --reps 1 \
    > "$R/ncu_traffic_$1_pf$2.txt" 2>&1
  echo "== ncu $1 prefetch $2"; grep -E "dram__|lts__|gpu__time|l1tex__" "$R/ncu_traffic_$1_pf$2.txt"
done
pack
echo "(${SECONDS}s)"
timeout 240 .carry-run/new2/gpu_check --quick > "$R/check_new2.log" 2>&1
echo "gpu_check --quick new2 rc=$?"; grep -E "^FAIL|PASSED|FAILED|lane streams" "$R/check_new2.log" | tail -3
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new2/gpu_check --tiny > "$R/san_${tool}_new2.log" 2>&1
  echo "$tool new2 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/san_${tool}_new2.log"
done
# gpu_check --tiny has too few blocks for a prefetch: memcheck of a 16 MiB call with d = 1/8 round
UZIP_GPU_ENC_PREFETCH=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new1/gpu_bench /tmp/y.json \
  --dtypes 1 --flags 2 --sizes-kib 16384 --sms 0 --reps 1 > "$R/san_memcheck_pf1_bench.log" 2>&1
echo "memcheck pf1 bench rc=$?"; grep -E "ERROR SUMMARY" "$R/san_memcheck_pf1_bench.log"
pack
echo "(${SECONDS}s)"
