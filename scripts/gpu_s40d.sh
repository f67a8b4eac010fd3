#!/usr/bin/env bash
# Session 40, fourth call: what a lean default for small calls would give, per dtype and layout, on the merged
# build (no new code): at 1, 4 and 16 MiB, each dtype's default coding (flags 0 / 2, the default blocks) against
# lean sections (flags 16 / 18) at 2^12 and 2^13 blocks, lean streams decoded through uzipGpuDecompressEither
# (UZIP_BENCH_EITHER=1, as a default decode would) and default streams through it too (its cost where the
# guess is wrong). Ratios are the bench's own (Gaussian data). Carry [".carry-run"]: gpu/ (xz), commit.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
S="1024 4096 16384"
for d in 1 3 2 4; do
  for f in 2 0; do
    gpu_bench_run "d${d}_f${f}_dflt" gpu -- --dtypes $d --flags $f --sizes-kib "$S" --sms 0 --reps 10 >/dev/null
    gpu_bench_run "d${d}_f${f}_dflt_either" gpu UZIP_BENCH_EITHER=1 -- --dtypes $d --flags $f --sizes-kib "$S" --sms 0 --reps 10 >/dev/null
    for lg in 12 13; do
      gpu_bench_run "d${d}_f$((f + 16))_l${lg}_either" gpu UZIP_BENCH_EITHER=1 -- --dtypes $d --flags $((f + 16)) --log2 $lg \
        --sizes-kib "$S" --sms 0 --reps 10 >/dev/null
    done
    for t in dflt dflt_either l12_either l13_either; do
      tag="d${d}_f${f}_$t"; [ "${t#l}" != "$t" ] && tag="d${d}_f$((f + 16))_${t}"
      grep -E '^(bf16|fp16|fp32|fp8)' "$R/$tag.log" |
        awk -v t="$tag" '{printf "%-22s %s r=%s us %s/%s b2b %s/%s\n", t, $2, $4, $8, $9, $10, $11}'
    done
  done
  pack; echo "(${SECONDS}s)"
done
