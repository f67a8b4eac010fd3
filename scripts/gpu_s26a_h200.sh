#!/usr/bin/env bash
# Session 26, call 1: the two decoder cuts prepared in session 25 (whose branches were lost with its
# checkout; rewritten this session from its notes): new1 = exp/s26-ringor (the compact CTA's four word rings
# at its start, 1024-byte aligned, so a step's word address is one LOP3; the kernel answers INTERNAL if the
# base is misaligned), new2 = exp/s26-ptrs on top (the vector path carries its remainder and output
# pointers). old = main. Also packs the GPU machine's cuobjdump and nvdisasm (scripts/sass_kernel.sh needs
# them here). gpu_check --quick of new2 (library choices, and the compact decoder forced) and of new1
# (compact forced), memcheck of gpu_check --tiny with the compact decoder forced on new2, then the A/B.
# Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for t in cuobjdump nvdisasm; do
  p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
  [ -n "$p" ] && xz -T8 -6 -c "$p" > "$OUT/$t.xz"
done
ls -l "$OUT"
for run in "new2 lib" "new2 v4" "new1 v4"; do
  set -- $run
  envs=(); [ "$2" = v4 ] && envs=(UZIP_GPU_DEC_VARIANT=4)
  env "${envs[@]}" timeout 100 .carry-run/$1/gpu_check --quick > "$R/check_$1_$2.log" 2>&1
  echo "gpu_check $1 $2 --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_$1_$2.log" | head -6
  pack; echo "(${SECONDS}s)"
done
UZIP_GPU_DEC_VARIANT=4 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/new2/gpu_check --tiny > "$R/san_memcheck_new2_v4.log" 2>&1
echo "compute-sanitizer memcheck new2 v4 rc=$?"; grep -E "ERROR SUMMARY|FAILED" "$R/san_memcheck_new2_v4.log" | head -3
pack
echo "(${SECONDS}s)"
gpu_bench_dirs r1_d1_f2 "old new1 new2" --dtypes 1 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r2_d1_f2 "new2 new1 old" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 2:2 3:2 4:2 1:0; do
  gpu_bench_dirs "r1_d${d%:*}_f${d#*:}" "old new2" --dtypes ${d%:*} --flags ${d#*:} --sizes-kib "1048576" --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
