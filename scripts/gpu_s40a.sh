#!/usr/bin/env bash
# Session 40, first call: x/ (branch exp/s40-either: uzipGpuDecompressEither, the lean kernel then the default
# one, each leaving the other's streams at the header, the second a programmatic dependent launch; and the lean
# decoder in the compact layout for calls of many rounds) checked, then weighed against main's build (gpu/).
# Checks: gpu_check --lean with the lean kernel by rule / forced 0 / forced 1, --quick with every default and
# lean decode through uzipGpuDecompressEither (UZIP_CHECK_EITHER=1: damaged streams too), --lean with the
# second kernel launched plainly; memcheck of --tiny --bytes and --tiny --lean through it, racecheck of the
# compact lean kernel. Benches: what the second kernel costs (default and lean 2^12 streams, bf16 split,
# 1-256 MiB, with and without PDL), then the compact lean kernel (16 MiB-1 GiB) beside the default coding.
# Carry [".carry-run"]: gpu/ (main at 4ac28a8), x/ (5726654; xz) and the commit file; run as bash scripts/gpu_s40a.sh.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
X=.carry-run/x/gpu_check
c() {  # c TAG TIMEOUT [VAR=value ...] -- ARGS: gpu_check of x/
  local tag=$1 t=$2 envs=(); shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout "$t" $X "$@" > "$R/$tag.log" 2>&1
  echo "$tag ${envs[*]} $* rc=$?: $(grep -E "^FAIL|PASSED|FAILED" "$R/$tag.log" | head -3 | tr '\n' ' ')"
}
c lean_rule 90 -- --lean
c lean_v0 90 UZIP_GPU_LEAN_DEC_VARIANT=0 -- --lean
c lean_v1 90 UZIP_GPU_LEAN_DEC_VARIANT=1 -- --lean
c lean_either_nopdl 90 UZIP_CHECK_EITHER=1 UZIP_GPU_EITHER_PDL=0 -- --lean
c quick_either 200 UZIP_CHECK_EITHER=1 -- --quick
pack; echo "(${SECONDS}s)"
us() { grep -E '^(bf16|fp16|fp32|fp8)' "$R/$1.log" | awk '{printf "  %s %s r=%s TB/s %s/%s us %s/%s b2b %s/%s\n", $1, $2, $4, $5, $6, $8, $9, $10, $11}'; }
b() {  # b TAG DIR [VAR=value ...] -- ARGS
  local tag=$1; gpu_bench_run "$@" > /dev/null; echo "== $tag"; us "$tag"
}
for r in 1 2; do
  b r${r}_dflt_main gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_dflt_x x -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_dflt_either x UZIP_BENCH_EITHER=1 -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_dflt_either_nopdl x UZIP_BENCH_EITHER=1 UZIP_GPU_EITHER_PDL=0 -- --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_lean12_x x -- --dtypes 1 --flags 18 --log2 12 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_lean12_either x UZIP_BENCH_EITHER=1 -- --dtypes 1 --flags 18 --log2 12 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  b r${r}_lean12_either_nopdl x UZIP_BENCH_EITHER=1 UZIP_GPU_EITHER_PDL=0 -- --dtypes 1 --flags 18 --log2 12 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
for r in 1 2; do
  for v in 0 1 rule; do
    e=(); [ $v = rule ] || e=(UZIP_GPU_LEAN_DEC_VARIANT=$v)
    b r${r}_leanc_$v x "${e[@]}" -- --dtypes 1 --flags 18 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
    b r${r}_leanc12_$v x "${e[@]}" -- --dtypes 1 --flags 18 --log2 12 --sizes-kib "262144 1048576" --sms 0 --reps 10
  done
  b r${r}_split_main gpu -- --dtypes 1 --flags 2 --sizes-kib "1048576" --sms 0 --reps 10
  pack; echo "(${SECONDS}s)"
done
for part in bytes lean; do
  env UZIP_CHECK_EITHER=1 UZIP_GPU_LEAN_DEC_VARIANT=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $X --tiny --$part > "$R/memcheck_$part.log" 2>&1
  echo "memcheck --tiny --$part (either, compact lean) rc=$?: $(grep -E "ERROR SUMMARY|FAILED|PASSED" "$R/memcheck_$part.log" | head -2 | tr '\n' ' ')"
done
env UZIP_GPU_LEAN_DEC_VARIANT=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $X --tiny --lean \
  > "$R/racecheck_lean.log" 2>&1
echo "racecheck --tiny --lean (compact lean) rc=$?: $(grep -E "RACECHECK SUMMARY|FAILED|PASSED" "$R/racecheck_lean.log" | head -2 | tr '\n' ' ')"
pack; echo "(${SECONDS}s)"
