#!/usr/bin/env bash
# Session 16, first call (one H200): session 15's last main build (84afc22, carried as old/) checked
# (gpu_check --lanes --quick; the lane decoder's word ring for two-byte types only, fp32 back on global
# words, against UZIP_GPU_LANES_DEC_VARIANT=1), then branch exp/hist-ring (gpu/: the interleaved encoder's
# histogram pass through a cp.async ring) checked and measured against main in the same call, sanitizers last.
# Pack: on main, bash scripts/gpu_check.sh --build && mkdir -p .carry/old && cp .carry/gpu/{gpu_check,
# gpu_bench,libuzip.so} .carry/old/; git checkout exp/hist-ring; PACK_DENO=none PACK_WEIGHTS=none
# bash scripts/pack_device.sh; run with carry [".carry-run"].
set -u
source scripts/device_env.sh
timeout 60 .carry-run/old/gpu_check --lanes --quick > "$R/check_lanes_main.log" 2>&1
echo "main gpu_check --lanes --quick rc=$? (${SECONDS}s)"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/check_lanes_main.log" | head -6
for d in 3 1; do
  gpu_bench_run "lanes_default_d$d" old -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
  gpu_bench_run "lanes_old_d$d" old UZIP_GPU_LANES_DEC_VARIANT=1 -- --dtypes $d --flags 6 --log2 14 --sizes-kib 262144,1048576 --sms 0 --reps 10
done
pack
echo "(${SECONDS}s)"
check_run check_branch 150 -- --quick
echo "(${SECONDS}s)"
for round in 1 2; do
  for d in 1 2; do
    for fl in 0 2; do
      gpu_bench_ab "r${round}_%s_d${d}_f$fl" -- --dtypes $d --flags $fl --sizes-kib 16384,262144,1048576 --sms 0 --reps 10
    done
  done
  pack
  echo "(${SECONDS}s)"
done
san_run 100 -- --tiny
echo "(${SECONDS}s)"
