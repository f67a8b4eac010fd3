#!/usr/bin/env bash
# Session 43: the decoder's kernel choice for small calls, and session 42's default against main, in one call
# (on the H200 the issue names when one comes; the card is recorded in gpu.txt). Builds carried:
# old/ = main at 18fb01e (before lean by default), gpu/ = 4efa333 (477b621's kernels: lean 2^12 default of split
# bf16/fp32 calls up to 16 MiB), new1/ = the one-round kernel for every call of at most one round of its warps
# (dtype given, one- and two-byte types; no dtype, destinations of at most one round of 8 KiB blocks).
# 1. gpu against new1, 64 KiB-16 MiB, with the dtype and without (--dec-hint 0): bf16 split (then old against gpu,
# bf16 split 1-256 MiB), bf16 default layout, fp32 split, fp16, fp8. 2. gpu_check --quick of new1. 3. old against
# gpu: bf16 split 1 GiB, fp32 split and the bf16 default layout at 1, 16, 256 MiB. 4. cuobjdump and nvdisasm. Carry [".carry-run"] (old/, gpu/, new1/, commit; no Deno).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
small="64 256 1024 4096 16384"
ab() {  # ab DTYPE FLAGS: gpu against new1 with the dtype given and without
  gpu_bench_dirs "rule_d$1_f$2" "gpu new1" --dtypes $1 --flags $2 --sizes-kib "$small" --sms 0 --reps 10
  gpu_bench_dirs "nohint_d$1_f$2" "gpu new1" --dtypes $1 --flags $2 --sizes-kib "$small" --sms 0 --reps 10 --dec-hint 0
  pack
}
ab 1 2
gpu_bench_dirs r1_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
ab 1 0; ab 3 2; ab 2 0; ab 4 0
echo "(${SECONDS}s)"
CHECK_DIR=new1 check_run check_new1 200 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs r2_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1048576" --sms 0 --reps 10
gpu_bench_dirs r1_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
# 4. The disassembler for scripts/sass_kernel.sh on the build machine (gone with session 17's copies).
for t in cuobjdump nvdisasm; do
  p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
  [ -n "$p" ] && xz -T8 -6 -c "$p" > "$OUT/$t.xz"; echo "$t: $p $(ls -l "$OUT/$t.xz" 2>/dev/null | awk '{print $5}')"
done
