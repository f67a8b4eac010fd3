#!/usr/bin/env bash
# Session 20, first call: main's build (a6c48d8: gpu_check also compresses unaligned inputs with the default
# coding at warp-pair sizes). (1) encoder_checks: gpu_check --quick with the library's choice and with lone
# warps forced, memcheck and racecheck of --tiny; (2) the TS suites that need a GPU on one GPU (Deno
# carried); (3) a native sweep of this build (Gaussian, every dtype, split layout; bf16 default layout;
# bf16 under 8/16/32 SMs), median of 10, the device copy in the same run.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, then gpu/libuzip.so xz'd in place
# (xz -3 -> libuzip.so.xz) and .carry/deno.xz copied in; run with carry [".carry-run"].
set -u
[ -f .carry-run/gpu/libuzip.so.xz ] && xz -dc .carry-run/gpu/libuzip.so.xz > .carry-run/gpu/libuzip.so
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
encoder_checks
if command -v deno > /dev/null; then
  timeout 240 deno test -A --no-check tests/device_gpu_test.ts tests/convert_test.ts \
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
