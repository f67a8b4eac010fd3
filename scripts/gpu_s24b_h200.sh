#!/usr/bin/env bash
# Session 24, call 1 (after gpu_s24a_h200.sh in the same call): the encoder's fused word store against main
# (old/ = main's build, 8b1bccd) in one call. new1 = exp/s24-stfuse (each step of a group with room stores
# its own word, guarded by the shed's predicate), new2 = exp/s24-stsel (its shed a shift by a selected
# amount), new3 = exp/s24-stcorr (and the quotient's correction a multiply by a selected 0 / 1). bf16 split
# two rounds, then fp16 / fp32 / fp8 split and bf16 default layout for old and new3; ncu pipes of new3;
# gpu_check --quick of new3. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
gpu_bench_dirs r1_d1_f2 "old new1 new2 new3" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new3 new2 new1 old" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new3" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
M=sm__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
for p in alu fma fmaheavy lsu; do
  M=$M,sm__pipe_${p}_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_${p}.sum
done
timeout 150 ncu --clock-control none --metrics "$M" -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
  .carry-run/new3/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --sizes-kib 262144 --sms 0 --reps 1 > "$R/ncu_pipes_new3_262144.txt" 2>&1
echo "== ncu pipes new3 bf16 split 262144 KiB"; grep -E "sm__|gpu__" "$R/ncu_pipes_new3_262144.txt"
pack
timeout 240 .carry-run/new3/gpu_check --quick > "$R/check_new3.log" 2>&1
echo "gpu_check new3 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new3.log" | head -6
pack
echo "(${SECONDS}s)"
