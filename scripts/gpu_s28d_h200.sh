#!/usr/bin/env bash
# Session 28, call 4: exp/s28-revseg with the two-segment section's table and headers out of line (new3/),
# whose lone-warp coding loops compile as main's again (call 3's form lost 5-6% at 2^14 through their
# schedule). gpu_check --quick of new3 (library choice, lone warps forced), memcheck of --tiny (2^15 cases
# included), then against main (gpu/): 2^14 bf16 split twice (must be level), and 2^15 against main's 2^15
# and 2^14 for bf16 split, fp8, fp16, fp32 at 1 and 4 GiB; real bf16 weights at 2^15. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in gpu new3; do
  for t in gpu_check gpu_bench; do
    [ -f .carry-run/$d/$t.xz ] && xz -dc .carry-run/$d/$t.xz > .carry-run/$d/$t && chmod +x .carry-run/$d/$t
  done
done
for run in lib v0; do
  envs=(); [ $run = v0 ] && envs=(UZIP_GPU_ENC_VARIANT=0)
  env "${envs[@]}" timeout 100 .carry-run/new3/gpu_check --quick > "$R/check_new3_$run.log" 2>&1
  echo "gpu_check new3 $run --quick rc=$?"; grep -E "^FAIL|multi-segment|PASSED|FAILED" "$R/check_new3_$run.log" | head -8
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new3/gpu_check --tiny > "$R/san_memcheck_new3.log" 2>&1
echo "memcheck new3 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new3.log" | head -3
pack; echo "(${SECONDS}s)"
S="1048576 4194304"
gpu_bench_dirs l14a_d1 "gpu new3" --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 $S" --sms 0 --reps 10
gpu_bench_dirs l14b_d1 "new3 gpu" --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 $S" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 1 4 2 3; do
  gpu_bench_run "l14_d${d}_gpu" gpu -- --dtypes $d --flags 2 --log2 14 --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_dirs "l15_d${d}" "gpu new3" --dtypes $d --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs l15r2_d1 "new3 gpu" --dtypes 1 --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs w15_d1_f0 "gpu new3" --dtypes 1 --flags 0 --log2 15 --input /tmp/wdata/weights_bf16.bin --sizes-kib "$S" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
