#!/usr/bin/env bash
# Session 45, one GPU: the encoder's per-SM cap under an SM budget (branch exp/s45-sm-cap, built in gpu/: a call of
# fewer CTAs of work than its budget holds gets them spread over the budget's SMs, ceil(need / budget) an SM,
# and gated CTAs let the permitted ones start first) against main (old/), same call. 1. gpu_check --quick (its
# 1-16 SM budget and occupied-SM cases) and memcheck of gpu_check --tiny on the branch. 2. Split bf16 / fp16 /
# fp32 and fp8 at 64 KiB-64 MiB under 8, 16, 32 and 116 SMs, and on the whole chip (unchanged code: the
# control). 3. The P2P pipeline through self (its codec runs under all SMs but 16), two rounds.
# Carry [".carry-run"]; bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
check_run check 200 -- --quick
SAN_TOOLS=memcheck san_run 200 -- --tiny
echo "(${SECONDS}s)"
s="64 1024 4096 16384 65536"
for d in 1 2 3; do
  gpu_bench_ab "d${d}_split_sms_%s" -- --dtypes $d --flags 2 --sizes-kib "$s" --sms 8,16,32,116 --reps 10
done
gpu_bench_ab "d4_sms_%s" -- --dtypes 4 --flags 0 --sizes-kib "$s" --sms 8,16,32,116 --reps 10
gpu_bench_ab "d1_split_chip_%s" -- --dtypes 1 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
for round in 1 2; do
  for b in old gpu; do
    UZIP_LIB="$PWD/.carry-run/$b/libuzip.so" timeout 120 deno run -A --no-check scripts/launch.ts -n 1 \
      bench/p2p_self.ts --sizes 4MiB,16MiB,64MiB,256MiB --reps 31 --tag "${b}_r$round" --out "$R" \
      --commit "$UZIP_GIT_COMMIT ($b)" > "$R/self_${b}_r$round.log" 2>&1
    echo "== $b round $round rc=$?"; sed 's/^\[rank 0\] //' "$R/self_${b}_r$round.log" | grep -vE "^wrote" | tail -5
  done
  pack; echo "(${SECONDS}s)"
done
