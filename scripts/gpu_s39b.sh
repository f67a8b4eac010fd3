#!/usr/bin/env bash
# Session 39, second call: any/ (branch exp/s39-lean-any: the byte-coding decoders decode lean streams too, out
# of line at the kernel's top level) checked and weighed against main's build (gpu/), then the racecheck of
# main's gpu_check --tiny that session 38 could not finish. any/'s checks: gpu_check --lean (lean streams
# through the lean kernel and through uzipGpuDecompress / uzipGpuDecompressAs, damaged ones both ways) with
# the library's kernel choice and with each decoder variant forced, memcheck of --lean --tiny, --quick.
# Its A/B: the default decoders' speed on default streams, as ptxas counts more spill bytes in them.
# Carry [".carry-run"]: gpu/, any/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
A=.carry-run/any/gpu_check
for v in "" 0 1 2 3 4; do
  env ${v:+UZIP_GPU_DEC_VARIANT=$v} timeout 60 $A --lean > "$R/any_lean_v${v:-auto}.log" 2>&1
  echo "any --lean variant ${v:-auto} rc=$?: $(grep -E "^FAIL|PASSED|FAILED" "$R/any_lean_v${v:-auto}.log" | head -3)"
done
pack; echo "(${SECONDS}s)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $A --lean --tiny > "$R/any_memcheck_lean_tiny.log" 2>&1
echo "any memcheck --lean --tiny rc=$?: $(grep -E "ERROR SUMMARY|FAILED" "$R/any_memcheck_lean_tiny.log" | head -2)"
timeout 150 $A --quick > "$R/any_quick.log" 2>&1
echo "any --quick rc=$?: $(grep -E "^FAIL|PASSED|FAILED" "$R/any_quick.log" | head -3)"
pack; echo "(${SECONDS}s)"
gpu_bench_dirs r1_split "gpu any" --dtypes 1,3 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs dflt "gpu any" --dtypes 1,2,4 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
gpu_bench_dirs r2_split "gpu any" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
SAN_TOOLS=racecheck SAN_SUFFIX=tiny san_run "${RACE_S:-240}" -- --tiny
echo "(${SECONDS}s)"
