#!/usr/bin/env bash
# One H200 call (written in session 11 for the next one; not yet run): the open questions of
# docs/GPU_CODEC_NOTES.md "Eleventh session", each a same-build A/B.
#   1. the one-round decode candidate (UZIP_GPU_DEC_VARIANT=3): full gpu_check, then decompress at 16-128
#      MiB against the default;
#   2. the fp32 decode kernel (taken with the dtype given) against the default under SM budgets between
#      32 and 132 (the rule uses it from half the chip; 116 is the P2P engine's default budget);
#   3. encoder variant 1 (taken from 7 / 15 rounds of blocks) against variant 0 under SM budgets.
# Usage (device, after PACK_WEIGHTS=none bash scripts/pack_device.sh here): bash scripts/gpu_next_h200.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
UZIP_GPU_DEC_VARIANT=3 timeout 240 .carry-run/gpu/gpu_check > "$R/check_dec3.log" 2>&1
echo "== gpu_check, decoder variant 3, rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check_dec3.log" | tail -3
pack
for r in 1 2; do
  gpu_bench_run "dec_default_r$r" gpu -- --dtypes 1,2,4 --flags 2 --sizes-kib 16384,32768,65536,98304,131072 --sms 0 --reps 10
  gpu_bench_run "dec_v3_r$r" gpu UZIP_GPU_DEC_VARIANT=3 -- --dtypes 1,2,4 --flags 2 --sizes-kib 16384,32768,65536,98304,131072 --sms 0 --reps 10
done
pack
for r in 1 2; do
  gpu_bench_run "fp32_hint_r$r" gpu -- --dtypes 3 --flags 2 --sizes-kib 262144,1048576 --sms 48,64,96,116 --reps 6 --dec-hint 1
  gpu_bench_run "fp32_nohint_r$r" gpu -- --dtypes 3 --flags 2 --sizes-kib 262144,1048576 --sms 48,64,96,116 --reps 6 --dec-hint 0
done
pack
for r in 1 2; do
  gpu_bench_run "enc_auto_r$r" gpu -- --dtypes 1,4 --flags 2 --sizes-kib 1048576,2097152 --sms 32,64,116 --reps 5
  gpu_bench_run "enc_v0_r$r" gpu UZIP_GPU_ENC_VARIANT=0 -- --dtypes 1,4 --flags 2 --sizes-kib 1048576,2097152 --sms 32,64,116 --reps 5
done
pack
