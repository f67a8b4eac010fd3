#!/usr/bin/env bash
# Session 19, first call: the histogram pass's rare groups out of line (docs/experiments/
# hist-rare-out-of-line.patch, prepared in session 18). (1) the GPU machine's disassemblers (xz, for
# scripts/sass_kernel.sh); (2) encoder_checks: gpu_check --quick of the library's choice and of lone warps
# forced, memcheck and racecheck of --tiny; (3) main's build (old) against this one, same call: bf16 split
# twice at 1-16 MiB and 256 MiB, bf16 default layout, fp32, fp16 and fp8 split once.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh with .carry/old = main's build; run
# with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for t in cuobjdump nvdisasm; do
  p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
  [ -n "$p" ] && xz -T8 -6 -c "$p" > "$OUT/$t.xz"
done
encoder_checks
S="1024 4096 8192 16384"
for r in 1 2; do
  gpu_bench_dirs "r${r}_d1_f2" "old gpu" --dtypes 1 --flags 2 --sizes-kib "$S 262144" --sms 0 --reps 10
done
pack
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "$S 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "$S 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d2_f2 "old gpu" --dtypes 2 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d4_f2 "old gpu" --dtypes 4 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack
echo "(${SECONDS}s)"
