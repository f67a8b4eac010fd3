#!/usr/bin/env bash
# Session 18, second call: encoder warp pairs (UZIP_GPU_ENC_VARIANT=3, compress_kernel<W, 8, 4, true>: a coder
# and a helper warp per block). (1) gpu_check --quick of this build with the default encoder and with the
# pairs forced; memcheck and racecheck of gpu_check --tiny with the pairs forced; (2) main's build (old)
# against this one's default and its pairs in the same call: bf16 and fp32 split layout 1 MiB - 1 GiB, bf16
# default layout, fp16 and fp8 at the small sizes.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, main's build copied to .carry-run/old;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 200 -- --quick
check_run check_v3 200 UZIP_GPU_ENC_VARIANT=3 -- --quick
echo "(${SECONDS}s)"
SAN_SUFFIX=v3 san_run 200 UZIP_GPU_ENC_VARIANT=3 -- --tiny
echo "(${SECONDS}s)"
for d in 1 3; do
  a=(--dtypes $d --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10)
  gpu_bench_run "old_d$d" old -- "${a[@]}"
  gpu_bench_run "gpu_d$d" gpu -- "${a[@]}"
  gpu_bench_run "v3_d$d" gpu UZIP_GPU_ENC_VARIANT=3 -- "${a[@]}"
  pack
  echo "(${SECONDS}s)"
done
for d in 2 4; do
  a=(--dtypes $d --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10)
  gpu_bench_run "gpu_d$d" gpu -- "${a[@]}"
  gpu_bench_run "v3_d$d" gpu UZIP_GPU_ENC_VARIANT=3 -- "${a[@]}"
done
a=(--dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10)
gpu_bench_run "gpu_d1_f0" gpu -- "${a[@]}"
gpu_bench_run "v3_d1_f0" gpu UZIP_GPU_ENC_VARIANT=3 -- "${a[@]}"
pack
echo "(${SECONDS}s)"
