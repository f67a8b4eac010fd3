#!/usr/bin/env bash
# Session 28, call 2. (A) Three word stages per encoder warp instead of four (exp/s28-stages3, new1/): a
# deferred block's stage is copied out one block sooner, so more of it may still be in L2; fewer blocks
# wait. gpu_check --quick and memcheck of new1, then the A/B against main (gpu/): bf16 split twice, the
# default layout, fp32, fp8, real bf16 weights (their ANS remainder planes defer blocks longest). (B) No new
# code: 2^15-element blocks against the library's 2^14 for fp16, fp32, fp8 and bf16 at 256 MiB - 4 GiB
# (2^15 codes fp8 and fp16 smaller: real weights 0.8055 -> 0.8006, 0.8664 -> 0.8640). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in gpu new1; do
  for t in gpu_check gpu_bench; do
    [ -f .carry-run/$d/$t.xz ] && xz -dc .carry-run/$d/$t.xz > .carry-run/$d/$t && chmod +x .carry-run/$d/$t
  done
done
timeout 100 .carry-run/new1/gpu_check --quick > "$R/check_new1.log" 2>&1
echo "gpu_check new1 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new1.log" | head -6
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new1/gpu_check --tiny > "$R/san_memcheck_new1.log" 2>&1
echo "memcheck new1 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new1.log" | head -3
pack; echo "(${SECONDS}s)"
S="262144 1048576 4194304"
gpu_bench_dirs r1_d1_f2 "gpu new1" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs r2_d1_f2 "new1 gpu" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs w_d1_f0 "gpu new1" --dtypes 1 --flags 0 --input /tmp/wdata/weights_bf16.bin --sizes-kib "262144 1048576" --sms 0 --reps 10
for d in 1:0 3:2 4:2; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "gpu new1" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "262144 1048576" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for d in 2 3 4 1; do
  for lg in 14 15; do
    gpu_bench_run "l${lg}_d${d}_f2" gpu -- --dtypes $d --flags 2 --log2 $lg --sizes-kib "$S" --sms 0 --reps 10
  done
  pack; echo "(${SECONDS}s)"
done
