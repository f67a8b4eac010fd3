#!/usr/bin/env bash
# One H200: the decoder's segment-pair path (two ANS segments of a 2^15+-element block decoded at once on
# one warp; the default decoder) against the same decoder without it (UZIP_GPU_DEC_VARIANT=2) in the same
# call. Correctness with the pair path: full gpu_check (2^15 / 2^16 blocks, mixed segments, damaged
# streams at 2^15), memcheck and racecheck of gpu_check --tiny (which holds 2^15 / 2^16 cases). Speed:
# gpu_bench at log2 14, 15 and 16, bf16 and fp32, default and split layout, the two decoders alternating
# (ROUNDS, default 2; SIZES in KiB).
# Usage (device): bash scripts/gpu_pairs.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 240 .carry-run/gpu/gpu_check > "$R/check.log" 2>&1
echo "== gpu_check rc=$?"; grep -E 'FAIL|failures' "$R/check.log" | tail -12
for t in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $t --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/$t.log" 2>&1
  echo "== $t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$R/$t.log" | tail -3
done
pack
SIZES=${SIZES:-16384,262144,1048576}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for fl in 0 2; do
    for l in 14 15 16; do
      for v in 0 2; do
        [ "$l" = 14 ] && [ "$v" = 2 ] && continue  # one segment per block: the pair path never runs
        export UZIP_GPU_DEC_VARIANT=$v
        tag=r${round}_log2_${l}_f${fl}_dec$v
        timeout 60 .carry-run/gpu/gpu_bench "$R/bench_$tag.json" --log2 $l --flags $fl --dtypes 1,3 --sms 0 --reps 10 \
          --sizes-kib "$SIZES" --commit "$UZIP_GIT_COMMIT" \
          --cmd "UZIP_GPU_DEC_VARIANT=$v gpu_bench --log2 $l --flags $fl --sizes-kib $SIZES" > "$R/bench_$tag.log" 2>&1
        echo "== $tag rc=$?"; grep -E '^(bf16|fp32) ' "$R/bench_$tag.log" | cut -c1-100
      done
    done
    pack
  done
done
