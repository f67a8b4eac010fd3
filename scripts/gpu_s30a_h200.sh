#!/usr/bin/env bash
# Session 30, call 1. gpu/ = main 8967ca6 (session 29's histogram change merged); cy/ = exp/s30-carry (the
# encoder step's quotient correction as a borrow: sub.cc + subc, IADD3 carry-out + IADD3.X in the SASS,
# instead of the select ptxas made a guarded add 13 cycles behind its ISETP; coding loop 427 instructions as
# main's, static stalls 1188 -> 1151). (1) gpu_check --quick of cy: library choice, lone warps forced
# (variant 0), warp pairs forced (variant 3: enc_step_sts); (2) A/B against main: bf16 split twice, fp32
# split twice, fp8, fp16 split, bf16 and fp32 default layout, 1 MiB - 4 GiB; real bf16 weights split;
# (3) memcheck of gpu_check --tiny of cy with lone warps forced. Tools travel in gpu/ only and are copied
# beside each library ($ORIGIN). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
cp .carry-run/gpu/gpu_check .carry-run/gpu/gpu_bench .carry-run/cy/
left() { echo $((585 - SECONDS)); }
for v in lib 0 3; do
  envs=(); [ $v != lib ] && envs=(UZIP_GPU_ENC_VARIANT=$v)
  env "${envs[@]}" timeout 120 .carry-run/cy/gpu_check --quick > "$R/check_cy_$v.log" 2>&1
  echo "cy gpu_check --quick ${envs[*]} rc=$?"; grep -E "^FAIL|PASSED|FAILED" "$R/check_cy_$v.log" | head -4
  echo "(${SECONDS}s)"
done
pack
for r in 1 2; do
  dirs="gpu cy"; [ $r = 2 ] && dirs="cy gpu"
  gpu_bench_dirs "r${r}_d1_f2" "$dirs" --dtypes 1 --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
  gpu_bench_dirs "r${r}_d3_f2" "$dirs" --dtypes 3 --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
for d in 4 2; do
  gpu_bench_dirs "r1_d${d}_f2" "gpu cy" --dtypes $d --flags 2 --log2 14 --sizes-kib "1024 16384 262144 1048576 4194304" --sms 0 --reps 10
  pack
done
for d in 1 3; do
  gpu_bench_dirs "r1_d${d}_f0" "gpu cy" --dtypes $d --flags 0 --log2 14 --sizes-kib "1024 262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
gpu_bench_dirs "w_d1_f2" "gpu cy" --dtypes 1 --flags 2 --input /tmp/wdata/weights_bf16.bin --sizes-kib "16384 262144 1048576" \
  --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
t=$(left)
if [ "$t" -gt 30 ]; then
  UZIP_GPU_ENC_VARIANT=0 timeout "$t" compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/cy/gpu_check --tiny \
    > "$R/san_memcheck_cy.log" 2>&1
  echo "compute-sanitizer memcheck --tiny (cy, lone warps) rc=$?"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/san_memcheck_cy.log" | head -3
fi
pack; echo "(${SECONDS}s)"
