#!/usr/bin/env bash
# Session 19, second call: the histogram pass's rare groups out of line only in the two-byte warp-pair
# kernel (compress_kernel<2, 8, 4, true>), taking the group's words by value (every other kernel's SASS is
# main's, or differs by register names and the order of the checksum terms: <2, 4, 5>); and, as new1, that
# build with twice the histogram groups in flight in the pair kernels (D = 8 for two-byte types, 4 for fp32).
# encoder_checks of this build and gpu_check --quick of new1, then main's build (old), new1 and this one,
# same call: bf16 split twice and default layout once at 1-16 MiB, fp16 and fp32 split at 1-16 MiB, and bf16
# split at 256 MiB and 1 GiB (lone warps: variants 0 and 1) as the guard.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh with .carry/old = main's build;
# .carry-run/new1 = the D = 8 build's gpu_check, gpu_bench and libuzip.so; the libraries of old/ and new1/ as
# libuzip.so.xz (xz -3); run with carry [".carry-run"].
set -u
# old/ and new1/ carry their libraries xz-compressed (three builds exceed the carry limit otherwise).
for d in old new1; do
  [ -f .carry-run/$d/libuzip.so.xz ] && xz -dc .carry-run/$d/libuzip.so.xz > .carry-run/$d/libuzip.so
done
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
encoder_checks
timeout 200 .carry-run/new1/gpu_check --quick > "$R/check_new1.log" 2>&1
echo "new1 gpu_check --quick rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_new1.log" | head -4
pack
echo "(${SECONDS}s)"
S="1024 4096 8192 16384"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "old new1 gpu" --dtypes 1 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
done
gpu_bench_dirs r1_d1_f0 "old new1 gpu" --dtypes 1 --flags 0 --sizes-kib "$S" --sms 0 --reps 20
gpu_bench_dirs r1_d2_f2 "old new1 gpu" --dtypes 2 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
gpu_bench_dirs r1_d3_f2 "old new1 gpu" --dtypes 3 --flags 2 --sizes-kib "$S" --sms 0 --reps 20
pack
echo "(${SECONDS}s)"
gpu_bench_dirs big_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
