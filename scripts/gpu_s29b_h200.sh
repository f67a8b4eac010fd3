#!/usr/bin/env bash
# Session 29, call 2. gpu/ = main; hr2/ = exp/s29-histrare 06bd1d6 (lineinfo build, sm_90 only): every
# kernel's histogram pass takes the groups off its fast path out of line by value (two-byte types as in call
# 1's hr/; one- and four-byte types keep whole groups inline). (1) gpu_check --quick of hr2 (library choice,
# lone warps forced); (2) A/B against main: bf16 split twice, fp32, fp16, fp8 split, bf16 and fp32 default
# layout, 1 MiB - 4 GiB; real weights (bf16, fp32: gpu_bench --input, streams equal to the CPU codec's);
# (3) ncu of hr2 at 1 GiB bf16 split: stall reasons and the SASS source page (no_instruction by address);
# (4) memcheck and racecheck of gpu_check --tiny with lone warps forced. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
cp .carry-run/gpu/gpu_check .carry-run/gpu/gpu_bench .carry-run/hr2/
left() { echo $((585 - SECONDS)); }
for v in lib 0; do
  envs=(); [ $v = 0 ] && envs=(UZIP_GPU_ENC_VARIANT=0)
  env "${envs[@]}" timeout 150 .carry-run/hr2/gpu_check --quick > "$R/check_hr2_$v.log" 2>&1
  echo "hr2 gpu_check --quick ${envs[*]} rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_hr2_$v.log" | head -4
done
pack; echo "(${SECONDS}s)"
for r in 1 2; do
  dirs="gpu hr2"; [ $r = 2 ] && dirs="hr2 gpu"
  gpu_bench_dirs "r${r}_d1_f2" "$dirs" --dtypes 1 --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for d in 3 4 2; do
  gpu_bench_dirs "r1_d${d}_f2" "gpu hr2" --dtypes $d --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
  pack
done
for d in 1 3; do
  gpu_bench_dirs "r1_d${d}_f0" "gpu hr2" --dtypes $d --flags 0 --log2 14 --sizes-kib "1024 262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for w in 1:bf16 3:fp32; do
  for fl in 2 0; do
    gpu_bench_dirs "w_d${w%:*}_f$fl" "gpu hr2" --dtypes ${w%:*} --flags $fl --input /tmp/wdata/weights_${w#*:}.bin \
      --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
  done
done
pack; echo "(${SECONDS}s)"
timeout 100 ncu --clock-control none --section WarpStateStats --section SchedulerStats --section LaunchStats \
  --section Occupancy --section InstructionStats --section SpeedOfLight --section SourceCounters -k "regex:^compress_kernel" \
  -c 1 --launch-skip 3 -f -o "$R/ncu_hr2" .carry-run/hr2/gpu_bench /tmp/x.json --dtypes 1 --flags 2 --log2 14 \
  --sizes-kib 1048576 --sms 0 --reps 1 > "$R/ncu_hr2_run.txt" 2>&1
echo "ncu hr2 rc=$?"
ncu -i "$R/ncu_hr2.ncu-rep" --page raw --csv > "$R/ncu_raw_hr2.csv" 2>&1
ncu -i "$R/ncu_hr2.ncu-rep" --page source --csv --print-source sass > "$R/ncu_hr2_sass.csv" 2>&1
rm -f "$R/ncu_hr2.ncu-rep"; xz -T4 -f "$R/ncu_raw_hr2.csv" "$R/ncu_hr2_sass.csv"
pack; echo "(${SECONDS}s)"
for tool in memcheck racecheck; do
  t=$(left); [ "$t" -gt 20 ] || break
  UZIP_GPU_ENC_VARIANT=0 timeout "$t" compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/hr2/gpu_check --tiny \
    > "$R/san_${tool}_hr2.log" 2>&1
  echo "compute-sanitizer $tool --tiny (hr2, lone warps) rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_${tool}_hr2.log" | head -3
  pack; echo "(${SECONDS}s)"
done
