#!/usr/bin/env bash
# Session 28, call 3: the encoder's word move at 2^15-element blocks. new1/ = a DIAGNOSTIC build
# (exp/s28-nomove-diag) that skips move_words_down for blocks of several segments: its streams are wrong
# (gpu_bench reports the mismatches; its decode figures mean nothing), only its compress times count.
# new2/ = exp/s28-revseg: two-segment blocks coded last segment first, each right below the next one's
# header, so nothing moves (the copy-out inserts the first segment's pad word). gpu_check --quick of new2
# (library choice and lone warps forced), memcheck of --tiny, then against main (gpu/) at 2^15 and 2^14,
# same call: bf16 split, fp8, fp16, fp32 at 1 and 4 GiB; and new2 against main at 2^14 (bf16 split,
# twice). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in gpu new1 new2; do
  for t in gpu_check gpu_bench; do
    [ -f .carry-run/$d/$t.xz ] && xz -dc .carry-run/$d/$t.xz > .carry-run/$d/$t && chmod +x .carry-run/$d/$t
  done
done
for run in lib v0; do
  envs=(); [ $run = v0 ] && envs=(UZIP_GPU_ENC_VARIANT=0)
  env "${envs[@]}" timeout 100 .carry-run/new2/gpu_check --quick > "$R/check_new2_$run.log" 2>&1
  echo "gpu_check new2 $run --quick rc=$?"; grep -E "^FAIL|multi-segment|lane streams|PASSED|FAILED" "$R/check_new2_$run.log" | head -8
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new2/gpu_check --tiny > "$R/san_memcheck_new2.log" 2>&1
echo "memcheck new2 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new2.log" | head -3
pack; echo "(${SECONDS}s)"
S="1048576 4194304"
# new2 at the library's 2^14 (its main loop's SASS differs from main's: same count, other schedule)
gpu_bench_dirs l14a_d1 "gpu new2" --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 $S" --sms 0 --reps 10
gpu_bench_dirs l14b_d1 "new2 gpu" --dtypes 1 --flags 2 --log2 14 --sizes-kib "262144 $S" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 1 4 2 3; do
  gpu_bench_run "l14_d${d}_gpu" gpu -- --dtypes $d --flags 2 --log2 14 --sizes-kib "$S" --sms 0 --reps 10
  gpu_bench_dirs "l15_d${d}" "gpu new1 new2" --dtypes $d --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
gpu_bench_dirs l15r2_d1 "new2 gpu" --dtypes 1 --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_dirs w15_d1_f0 "gpu new2" --dtypes 1 --flags 0 --log2 15 --input /tmp/wdata/weights_bf16.bin --sizes-kib "$S" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
