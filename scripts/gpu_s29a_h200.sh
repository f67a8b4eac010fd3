#!/usr/bin/env bash
# Session 29, call 1. gpu/ = main; hr/ = exp/s29-histrare (the two-byte lone-warp kernels take the histogram
# pass's rare groups out of line by value: loop body 4217 -> 895 SASS, 122 -> 128 registers); rev/ = 1500c48
# (session 28's two-segment code inside the common kernels: 5-8% slower at 2^14 with main's coding loop,
# cause not traced). (1) gpu_check --quick of hr/ (library choice, lone warps forced); (2) bf16 split 2^14
# A/B of the three, two rounds, fp16 and the default layout once; (3) ncu stall reasons of each at 1 GiB;
# (4) fp8 e4m3 through the library's default block size (2^15 from 2^30 elements) and fp8 e5m2 at 2^14 / 2^15;
# (5) memcheck and racecheck of gpu_check --seg2 (two-segment blocks) with lone warps forced (REV kernels).
# Tools travel in gpu/ only and are copied beside each library ($ORIGIN). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in hr rev; do cp .carry-run/gpu/gpu_check .carry-run/gpu/gpu_bench .carry-run/$d/; done
left() { echo $((580 - SECONDS)); }
for v in lib 0; do
  envs=(); [ $v = 0 ] && envs=(UZIP_GPU_ENC_VARIANT=0)
  env "${envs[@]}" timeout 150 .carry-run/hr/gpu_check --quick > "$R/check_hr_$v.log" 2>&1
  echo "hr gpu_check --quick ${envs[*]} rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_hr_$v.log" | head -4
done
pack; echo "(${SECONDS}s)"
for r in 1 2; do
  dirs="gpu hr rev"; [ $r = 2 ] && dirs="rev hr gpu"
  gpu_bench_dirs "r${r}_d1_f2" "$dirs" --dtypes 1 --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs r1_d2_f2 "gpu hr" --dtypes 2 --flags 2 --log2 14 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "gpu hr" --dtypes 1 --flags 0 --log2 14 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
# Stall reasons (per warp, as a share of active cycles), issue, instruction counts, at 1 GiB bf16 split.
for d in gpu hr rev; do
  timeout 100 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section LaunchStats \
    --section Occupancy --section InstructionStats --section SpeedOfLight -k "regex:^compress_kernel" -c 1 --launch-skip 3 \
    --page raw --csv .carry-run/$d/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --log2 14 --sizes-kib 1048576 --sms 0 --reps 1 \
    > "$R/ncu_raw_$d.csv" 2>&1
  echo "ncu $d rc=$?"; xz -T4 -f "$R/ncu_raw_$d.csv"
  pack; echo "(${SECONDS}s)"
done
gpu_bench_run fp8_default gpu -- --dtypes 4 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
for lg in 14 15; do
  gpu_bench_run "e5m2_l$lg" gpu -- --dtypes 5 --flags 2 --log2 $lg --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for tool in memcheck racecheck; do
  t=$(left); [ "$t" -gt 20 ] || break
  UZIP_GPU_ENC_VARIANT=0 timeout "$t" compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --seg2 \
    > "$R/san_${tool}_seg2.log" 2>&1
  echo "compute-sanitizer $tool --seg2 (lone warps) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_${tool}_seg2.log" | head -3
  pack; echo "(${SECONDS}s)"
done
