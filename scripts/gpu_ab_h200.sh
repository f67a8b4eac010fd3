#!/usr/bin/env bash
# One H200 call: this build (.carry-run/gpu) against an earlier one (.carry-run/old), same call:
#   1. gpu_check (GPU bytes = CPU bytes, cross-decoding, corrupt streams); SAN=1 adds compute-sanitizer
#      memcheck and racecheck of gpu_check --tiny;
#   2. gpu_bench, Gaussian bf16 / fp16 / fp32, default layout, new and old alternating, ROUNDS times; bf16
#      split layout and bf16 weights (/tmp/wdata/weights_bf16.bin) once each; sizes SIZES (KiB);
#   3. NCU=1: ncu source counters of compress and decompress, bf16 default layout 256 MiB (.carry-run/li).
# Session 13 ran it as gpu_encstep_h200.sh (folder 2: ROUNDS=2 SIZES=262144,1048576 NCU=1, plus forced
# variants), gpu_copies_h200.sh (folder 3: ROUNDS=2 NCU=1) and gpu_copies2_h200.sh (folder 4: ROUNDS=3
# SAN=1); those scripts are in the tree at each folder's commit.
# Usage (device, after `PACK_DENO=none PACK_WEIGHTS=data PACK_DATA_DTYPES=bf16 [PACK_LI=1] bash
# scripts/pack_device.sh` here with the earlier build in .carry/old):
#   [ROUNDS=2] [SIZES=16384,262144,1048576] [SAN=1] [NCU=1] bash scripts/gpu_ab_h200.sh
set -u
source scripts/device_env.sh
S=${SIZES:-16384,262144,1048576}
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'PASSED|FAILED|^FAIL' "$R/check.log" | tail -3
if [ "${SAN:-}" = 1 ]; then
  for t in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $t --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/$t.log" 2>&1
    echo "== $t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$R/$t.log" | tail -2
  done
fi
pack
for r in $(seq 1 "${ROUNDS:-2}"); do
  for b in gpu old; do
    gpu_bench_run "g_${b}_r$r" $b -- --dtypes 1,2,3 --flags 0 --sizes-kib $S --sms 0 --reps 10
  done
  pack
done
for b in gpu old; do
  gpu_bench_run "split_$b" $b -- --dtypes 1 --flags 2 --sizes-kib $S --sms 0 --reps 10
  gpu_bench_run "w_bf16_$b" $b -- --dtypes 1 --flags 0 --sizes-kib $S --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
done
pack
if [ "${NCU:-}" = 1 ]; then
  for k in compress decompress; do ncu_kernel $k 262144 0 $k; pack; done
fi
