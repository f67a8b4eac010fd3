#!/usr/bin/env bash
# Session 24, call 2: the encoder's 8-step kernel at 20 warps per SM (5 CTAs: 96 registers, spills outside
# the coding loop) against main's (16 warps), in one call. old = main's build (8b1bccd's codec); new4 =
# exp/s24-v8x5 (main's kernel, variant 2 = compress_kernel<W, 8, 5>); new5 = exp/s24-stcorr-v8x5 (the same
# over call 1's fused word store); new3 = exp/s24-stcorr (its variant 1: 4-step groups, 20 warps). new6 =
# exp/s24-tabinfo (load_ans_table's info fill in one place): gpu_check --quick, memcheck and racecheck, and
# its decode speed in the dtype runs. gpu_check --quick of new4's variant 2. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="--dtypes 1 --flags 2 --sizes-kib"
for r in 1 2; do
  gpu_bench_run r${r}_d1_f2_old old -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new4v2 new4 UZIP_GPU_ENC_VARIANT=2 -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new5v2 new5 UZIP_GPU_ENC_VARIANT=2 -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_new3v1 new3 UZIP_GPU_ENC_VARIANT=1 -- $S "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run r${r}_d1_f2_oldv1 old UZIP_GPU_ENC_VARIANT=1 -- $S "16384 262144 1048576" --sms 0 --reps 10
done
gpu_bench_run r1_d1_f2_4g_old old -- $S 4194304 --sms 0 --reps 5
gpu_bench_run r1_d1_f2_4g_new4v2 new4 UZIP_GPU_ENC_VARIANT=2 -- $S 4194304 --sms 0 --reps 5
pack
echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  A="--dtypes ${d%:*} --flags ${d#*:} --sizes-kib"
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_old" old -- $A "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_new4v2" new4 UZIP_GPU_ENC_VARIANT=2 -- $A "16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_run "r1_d${d%:*}_f${d#*:}_new6" new6 -- $A "16384 262144 1048576" --sms 0 --reps 10
done
for s in 16 32; do
  gpu_bench_run r1_d1_f2_s${s}_old old -- $S "262144 1048576" --sms $s --reps 10
  gpu_bench_run r1_d1_f2_s${s}_new4v2 new4 UZIP_GPU_ENC_VARIANT=2 -- $S "262144 1048576" --sms $s --reps 10
done
pack
echo "(${SECONDS}s)"
UZIP_GPU_ENC_VARIANT=2 timeout 240 .carry-run/new4/gpu_check --quick > "$R/check_new4v2.log" 2>&1
echo "gpu_check new4 --quick UZIP_GPU_ENC_VARIANT=2 rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new4v2.log" | head -6
timeout 240 .carry-run/new6/gpu_check --quick > "$R/check_new6.log" 2>&1
echo "gpu_check new6 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new6.log" | head -6
pack
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/new6/gpu_check --tiny > "$R/san_${tool}_new6.log" 2>&1
  echo "compute-sanitizer $tool new6 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$R/san_${tool}_new6.log" | head -3
  pack
done
echo "(${SECONDS}s)"
