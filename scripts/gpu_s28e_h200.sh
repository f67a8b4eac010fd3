#!/usr/bin/env bash
# Session 28, call 5: exp/s28-revseg with the reversed two-segment coding in kernels of its own (new4/:
# compress_kernel<..., REV = true>, taken for log2Block 15 on lone warps; every other kernel's SASS is
# main's). gpu_check --quick of new4 with lone warps forced (variant 0, and variant 1: the REV kernels run
# gpu_check's 2^15 cases; the library's own choice for those small calls is warp pairs), memcheck of --tiny
# (variant 0), then 2^15 against main: bf16 split and fp8 at 1 and 4 GiB. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for d in gpu new4; do
  for t in gpu_check gpu_bench; do
    [ -f .carry-run/$d/$t.xz ] && xz -dc .carry-run/$d/$t.xz > .carry-run/$d/$t && chmod +x .carry-run/$d/$t
  done
done
for v in 0 1; do
  UZIP_GPU_ENC_VARIANT=$v timeout 80 .carry-run/new4/gpu_check --quick > "$R/check_new4_v$v.log" 2>&1
  echo "gpu_check new4 v$v --quick rc=$?"; grep -E "^FAIL|multi-segment|PASSED|FAILED" "$R/check_new4_v$v.log" | head -6
done
UZIP_GPU_ENC_VARIANT=0 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new4/gpu_check --tiny \
  > "$R/san_memcheck_new4.log" 2>&1
echo "memcheck new4 v0 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new4.log" | head -3
pack; echo "(${SECONDS}s)"
S="1048576 4194304"
for d in 1 4; do
  gpu_bench_dirs "l15_d${d}" "gpu new4" --dtypes $d --flags 2 --log2 15 --sizes-kib "$S" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
