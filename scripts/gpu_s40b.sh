#!/usr/bin/env bash
# Session 40, second call: the merged build (gpu/: uzipGpuDecompressEither, { lean: "maybe" }, the compact lean
# decoder by uzip_lean_dec_compact) checked (gpu_check --quick, whose every case now also decodes through
# uzipGpuDecompressEither, and --lean), then an H200 sweep of it (no H200 run of main since session 35; its
# default decoding against main's build is call 1's dflt_main / dflt_x). The tracked tree (42 MB on disk) now
# leaves the carry no room for Deno (31 MB xz), so the TypeScript GPU suites did not run here.
# Carry [".carry-run"]: gpu/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 150 -- --quick
check_run lean 60 -- --lean
echo "(${SECONDS}s)"
codec_sweep
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
