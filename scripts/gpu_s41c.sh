#!/usr/bin/env bash
# Session 41, third call (one GPU): what P2P's lean chunks cost or save in the compressed pipeline itself,
# measured through transfers to self (bench/p2p_self.ts: compressed against NCCL's own copy, same run) with
# main's build (main/) and with docs/experiments/p2p-lean-chunks.diff applied (lean/), two rounds each,
# alternating. No link is involved: this is the codec stages and the host's posting, not a network gain.
# ROUNDS, REPS and SIZES (defaults 2, 9, 4MiB,16MiB,64MiB,256MiB) set the rounds, the batches a median and the sizes.
# Carry [".carry-run"]: main/ and lean/ (libuzip.so.xz each), deno.xz and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for round in $(seq 1 "${ROUNDS:-2}"); do
  for b in main lean; do
    UZIP_LIB="$PWD/.carry-run/$b/libuzip.so" timeout 120 deno run -A --no-check scripts/launch.ts -n 1 \
      bench/p2p_self.ts --sizes "${SIZES:-4MiB,16MiB,64MiB,256MiB}" --reps "${REPS:-9}" --tag "${b}_r$round" --out "$R" \
      --commit "$UZIP_GIT_COMMIT ($b)" > "$R/self_${b}_r$round.log" 2>&1
    echo "== $b round $round rc=$?"; sed 's/^\[rank 0\] //' "$R/self_${b}_r$round.log" | grep -vE "^wrote" | tail -8
  done
  pack; echo "(${SECONDS}s)"
done
