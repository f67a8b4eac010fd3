#!/usr/bin/env bash
# Session 40, last measured call: why the second kernel of uzipGpuDecompressEither decodes slower as a
# programmatic dependent launch (bf16 split 1 MiB 31.3 -> 41 us back to back when the default decoder is the
# one that works). Guess: its CTAs are placed while the first kernel's CTAs still hold their slots, and a call of
# one round takes its blocks by warp index, so crowded SMs set the call's time. UZIP_GPU_EITHER_TICKETS=1 makes
# both kernels take blocks by ticket. Checks first: gpu_check --quick and --lean with every decode through
# uzipGpuDecompressEither with tickets. Then bf16 split 1-16 MiB: default and lean 2^12 streams, each through its
# own entry, through Either (PDL), Either with tickets, Either with tickets and no PDL.
# Carry [".carry-run"]: gpu/ (xz) and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check_either_tickets 150 UZIP_CHECK_EITHER=1 UZIP_GPU_EITHER_TICKETS=1 -- --quick
check_run lean_either_tickets 60 UZIP_CHECK_EITHER=1 UZIP_GPU_EITHER_TICKETS=1 -- --lean
echo "(${SECONDS}s)"
S="1024 4096 16384"
for r in 1 2; do
  for fl in "2 0" "18 12"; do
    set -- $fl; f=$1; lg=$2
    for v in own either either_tickets either_tickets_nopdl; do
      case $v in
        own) e=() ;; either) e=(UZIP_BENCH_EITHER=1) ;;
        either_tickets) e=(UZIP_BENCH_EITHER=1 UZIP_GPU_EITHER_TICKETS=1) ;;
        either_tickets_nopdl) e=(UZIP_BENCH_EITHER=1 UZIP_GPU_EITHER_TICKETS=1 UZIP_GPU_EITHER_PDL=0) ;;
      esac
      tag="r${r}_f${f}_$v"
      gpu_bench_run "$tag" gpu "${e[@]}" -- --dtypes 1 --flags $f --log2 $lg --sizes-kib "$S" --sms 0 --reps 10 >/dev/null
      grep -E '^bf16' "$R/$tag.log" | awk -v t="$tag" '{printf "%-28s %s us %s/%s b2b %s/%s\n", t, $2, $8, $9, $10, $11}'
    done
  done
  pack
done
echo "(${SECONDS}s)"
