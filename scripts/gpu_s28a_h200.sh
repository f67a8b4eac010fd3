#!/usr/bin/env bash
# Session 28, call 1: main as it stands. (1) gpu_check's occupied-SM cases with no SM budget (session 27
# added them and could not run them: a one-round decode by warp index and a many-round call while a test
# kernel holds all but 16 SMs; a hang is the watchdog's FAIL), then gpu_check --quick; (2) the TypeScript
# GPU tests (device buffers, streams, codec on device and host arrays); (3) gpu_bench of real weights
# (bf16 from the recognition model, --input: the GPU stream must be the CPU codec's bytes); (4) the
# codec CLI (bench/codec.ts) over every dtype, Gaussian and uniform data, 64 KiB - 4 GiB, full chip and 16
# SMs, with the device copy in the same run. gpu/ = main's tools and library (libuzip.so.xz); Deno in
# deno.xz; weights/ = PACK_WEIGHTS=data file (bf16). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
# The tools travel xz-compressed too (the tracked tree, ~34 MiB, plus Deno leave little of the 64 MiB).
for t in gpu_check gpu_bench; do [ -f .carry-run/gpu/$t.xz ] && xz -dc .carry-run/gpu/$t.xz > .carry-run/gpu/$t && chmod +x .carry-run/gpu/$t; done
left() { echo $((585 - SECONDS)); }
timeout 120 .carry-run/gpu/gpu_check --occupied > "$R/check_occupied.log" 2>&1
echo "gpu_check --occupied rc=$?"; grep -E "occupied|FAIL|PASSED|FAILED" "$R/check_occupied.log" | head -12
pack; echo "(${SECONDS}s)"
check_run check_main 120 -- --quick
echo "(${SECONDS}s)"
deno_gpu_suites; echo "(${SECONDS}s)"
for d in 1:bf16; do
  for fl in 2 0; do
    [ "${d%:*}" = 4 ] && [ $fl = 0 ] && continue
    gpu_bench_run "w_d${d%:*}_f$fl" gpu -- --dtypes ${d%:*} --flags $fl --input /tmp/wdata/weights_${d#*:}.bin \
      --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  done
done
pack; echo "(${SECONDS}s)"
timeout "$(left)" deno run -A --no-check bench/codec.ts --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 \
  --data gaussian,uniform --sms 0,16 --repeat 10 --json "$R/codec.json" --svg "$R/codec.svg" > "$R/codec_cli.log" 2>&1
echo "codec CLI rc=$?"; grep -E "MiB|GiB|KiB" "$R/codec_cli.log" | grep -E " 0 | all " | head -60
pack; echo "(${SECONDS}s)"
