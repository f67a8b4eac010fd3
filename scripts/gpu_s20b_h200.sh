#!/usr/bin/env bash
# Session 20, one call: decoder variants 4 and 5 (the compact shared layout: 24 warps per SM; 5 also codes
# fp32 on its vector path; branch exp/s20-dec24) against main (a6c48d8, old/) in the same call, and main's pending checks on this build
# (its encoder and default decoder compile to main's SASS). In priority order, packing after each stage:
# (1) gpu_check --quick and memcheck / racecheck of --tiny with UZIP_GPU_DEC_VARIANT=4, gpu_check --quick
# with 5; (2) decompress A/B, median of 10: old (the library's choice) / this build forced to variant 4 /
# this build's choice, bf16 split twice and default layout, fp16 and fp8 split; fp32 old / variant 5; (3) encoder_checks (main's a6c48d8 cases: unaligned
# inputs at warp-pair sizes); (4) the TS suites that need one GPU (Deno carried); (5) a native sweep of
# this build's default choice (every dtype, split layout; bf16 default layout; bf16 under 8/16/32 SMs).
# Pack: .carry/old = main's gpu_check, gpu_bench, libuzip.so; PACK_DENO=none PACK_WEIGHTS=none bash
# scripts/pack_device.sh; then libuzip.so of gpu/ and old/ xz'd in place (xz -T2 -3), old/gpu_check
# removed, .carry/deno.xz copied to .carry-run/; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check_dec4 200 UZIP_GPU_DEC_VARIANT=4 -- --quick
SAN_SUFFIX=dec4 san_run 200 UZIP_GPU_DEC_VARIANT=4 -- --tiny
check_run check_dec5 200 UZIP_GPU_DEC_VARIANT=5 -- --quick
echo "(${SECONDS}s)"
ab() {  # TAG ARGS...: old, this build forced to variant 4, this build's choice
  local tag=$1
  shift
  gpu_bench_run "${tag}_old" old -- "$@"
  gpu_bench_run "${tag}_dec4" gpu UZIP_GPU_DEC_VARIANT=4 -- "$@"
  gpu_bench_run "${tag}_gpu" gpu -- "$@"
}
B="16384 65536 262144 1048576 4194304"
ab r1_d1_f2 --dtypes 1 --flags 2 --sizes-kib "$B" --sms 0 --reps 10
pack
ab r1_d1_f0 --dtypes 1 --flags 0 --sizes-kib "262144 1048576" --sms 0 --reps 10
ab r1_d2_f2 --dtypes 2 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
ab r1_d4_f2 --dtypes 4 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
ab r2_d1_f2 --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
for v in old dec5; do
  if [ $v = old ]; then gpu_bench_run r1_d3_f2_old old -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
  else gpu_bench_run r1_d3_f2_dec5 gpu UZIP_GPU_DEC_VARIANT=5 -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10; fi
done
gpu_bench_run r1_d1_f2_dec5 gpu UZIP_GPU_DEC_VARIANT=5 -- --dtypes 1 --flags 2 --sizes-kib "262144 1048576" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
encoder_checks
if command -v deno > /dev/null; then
  timeout 150 deno test -A --no-check tests/device_gpu_test.ts tests/convert_test.ts \
    tests/collectives_gpu_sim_test.ts > "$R/deno_test.log" 2>&1
  echo "deno test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/deno_test.log" | grep -E "^(ok|FAILED)|passed|SKIP" | tail -8
  pack
fi
echo "(${SECONDS}s)"
S="64 1024 16384 262144 1048576 4194304"
for d in 1 3 2 4; do
  gpu_bench_run "sweep_d${d}_f2" gpu -- --dtypes $d --flags 2 --sizes-kib "$S" --sms 0 --reps 10
done
pack
gpu_bench_run sweep_d1_f0 gpu -- --dtypes 1 --flags 0 --sizes-kib "$S" --sms 0 --reps 10
gpu_bench_run sweep_d1_f2_sms gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 8,16,32 --reps 10
pack
echo "(${SECONDS}s)"
