#!/usr/bin/env bash
# Session 18, first call: segment pairs. (1) gpu_check --quick of this build with the default encoder and
# with the pair variants forced (UZIP_GPU_ENC_VARIANT=3: compress_kernel<W, 8, 4, 4>, 4: <W, 4, 5, 2>), memcheck
# and racecheck of --tiny; (2) bf16 and fp32 split layout at 2^14 and 2^15-element blocks, main's build (old)
# against this one (gpu) in the same call: the encoder's variants 0, 1 (one segment at a time) and 3, 4 (two
# segments side by side), the decoder's pair path through dec_vec_step.
# Pack: PACK_DENO=none PACK_WEIGHTS=none bash scripts/pack_device.sh, main's build copied to .carry-run/old;
# run with carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
quick_checks
for v in 3 4; do check_run "check_v$v" 200 UZIP_GPU_ENC_VARIANT=$v -- --quick; done
echo "(${SECONDS}s)"
S="16384 262144 1048576"
for d in 1 3; do
  a=(--dtypes $d --flags 2 --sizes-kib "$S" --sms 0 --reps 10)
  gpu_bench_run "b14_old_d$d" old -- "${a[@]}" --log2 14
  gpu_bench_run "b14_gpu_d$d" gpu -- "${a[@]}" --log2 14
  gpu_bench_run "b15_old_d$d" old -- "${a[@]}" --log2 15
  for v in 0 3 1 4; do
    [ $d = 3 ] && [ $v = 1 ] && continue
    [ $d = 3 ] && [ $v = 4 ] && continue
    gpu_bench_run "b15_v${v}_d$d" gpu UZIP_GPU_ENC_VARIANT=$v -- "${a[@]}" --log2 15
  done
  pack
  echo "(${SECONDS}s)"
done
