#!/usr/bin/env bash
# Session 40, second call: the merged build (gpu/: uzipGpuDecompressEither, { lean: "maybe" }, the compact lean
# decoder by uzip_lean_dec_compact) checked (gpu_check --quick, whose every case now also decodes through
# uzipGpuDecompressEither, and --lean; the TypeScript GPU suites), its default decoding weighed against main's
# build before this session (old/ 4ac28a8: the launch is now cudaLaunchKernelExC and every decoder reads
# skipMask), then an H200 sweep of the merged build (no H200 run of main since session 35).
# Carry [".carry-run"]: gpu/, old/ (xz), deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 150 -- --quick
check_run lean 60 -- --lean
echo "(${SECONDS}s)"
deno_gpu_suites
echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
done
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for d in 1 2 3 4; do
  for f in 2 0; do
    gpu_bench_run "sweep_d${d}_f$f" gpu -- --dtypes $d --flags $f --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  done
  pack
done
echo "(${SECONDS}s)"
# Where 256 MiB decodes lose to 1 GiB (2.6 rounds of 2^14 blocks on the compact decoder's 3168 warps): the
# same calls at other block sizes, and lean 2^13 (the ratio of plain 2^14).
for lg in 13 15; do
  gpu_bench_run "blocks_d1_f2_l$lg" gpu -- --dtypes 1 --flags 2 --log2 $lg --sizes-kib "262144 1048576" --sms 0 --reps 10
done
gpu_bench_run blocks_d1_f18_l13 gpu -- --dtypes 1 --flags 18 --log2 13 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
BENCH_TIMEOUT=120 gpu_bench_run sweep_d1_f2_4g gpu -- --dtypes 1 --flags 2 --sizes-kib "4194304" --sms 0 --reps 5
pack; echo "(${SECONDS}s)"
