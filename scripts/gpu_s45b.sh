#!/usr/bin/env bash
# Session 45, one GPU, main's build (gpu/, the lean default past 16 MiB merged): (1) the TS GPU suites and the
# P2P suite (transfers to self on one GPU: bit-exact, wire bytes = the CPU codec's chunks); (2) the compressed
# P2P pipeline through self (bench/p2p_self.ts, compressed against NCCL's own copy in the same run), three
# rounds, each taking turns: the default (codec calls kept to the engine's SM budget, session 44), the old
# spread of small calls (UZIP_GPU_STRICT_BUDGET=0), and large chunks in lean 2^13 sections
# (UZIP_P2P_LOG2=12,13: chunks past 16 MiB coded like the library's new default). Carry [".carry-run"].
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
deno_gpu_suites
p2p_suite
echo "(${SECONDS}s)"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for v in default spread lean13; do
    case $v in
      default) envs=() ;;
      spread) envs=(UZIP_GPU_STRICT_BUDGET=0) ;;
      lean13) envs=(UZIP_P2P_LOG2=12,13) ;;
    esac
    env "${envs[@]}" timeout 150 deno run -A --no-check scripts/launch.ts -n 1 bench/p2p_self.ts \
      --sizes "${SIZES:-4MiB,16MiB,64MiB,256MiB}" --reps "${REPS:-31}" --tag "${v}_r$round" --out "$R" \
      --commit "$UZIP_GIT_COMMIT ($v: ${envs[*]:-no env})" > "$R/self_${v}_r$round.log" 2>&1
    echo "== $v round $round rc=$?"; sed 's/^\[rank 0\] //' "$R/self_${v}_r$round.log" | grep -vE "^wrote" | tail -6
  done
  pack; echo "(${SECONDS}s)"
done
