#!/usr/bin/env bash
# Session 30, call 2: main as it stands after sessions 29-30 (every compress kernel's rare histogram groups out
# of line; fp8 e5m2 tensors of 2^30 elements and more at 2^15 as e4m3). (1) gpu_check --quick; (2) the
# TypeScript GPU suites; (3) fp8 e5m2 and e4m3 through the library's default block size (no --log2: 2^15 from
# 1 GiB, ratio 0.6722 on Gaussian data); (4) the codec CLI (bench/codec.ts) over
# every dtype, Gaussian and uniform data, 1 MiB - 4 GiB, full chip, with the device copy in the same run.
# gpu/ = main's tools and library (xz); Deno in deno.xz. Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
left() { echo $((585 - SECONDS)); }
check_run check_main 120 -- --quick
echo "(${SECONDS}s)"
deno_gpu_suites; echo "(${SECONDS}s)"
for d in 5 4; do
  for fl in 2; do
    gpu_bench_run "default_d${d}_f$fl" gpu -- --dtypes $d --flags $fl --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
  done
done
pack; echo "(${SECONDS}s)"
timeout "$(left)" deno run -A --no-check bench/codec.ts --sizes 1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 \
  --data gaussian,uniform --sms 0 --repeat 10 --json "$R/codec.json" --svg "$R/codec.svg" > "$R/codec_cli.log" 2>&1
echo "codec CLI rc=$?"; grep -E "MiB|GiB" "$R/codec_cli.log" | head -50
pack; echo "(${SECONDS}s)"
