#!/usr/bin/env bash
# The closing GPU check of a session (~90 s on 2 GPUs): codec bit-exactness, native kernel timings, the
# codec CLI on bf16/fp32 (synthetic and real weights), P2P and collectives with NCCL_P2P_DISABLE=1, and
# the collectives exactness test. Same bundle as scripts/gpu_session.sh (.carry-run/).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 60 .carry-run/gpu/gpu_check --quick > "$R/gpu_check.log" 2>&1
echo "gpu_check rc=$?"; grep -E 'PASSED|FAILED' "$R/gpu_check.log" | tail -2
timeout 25 .carry-run/gpu/gpu_bench "$R/native.json" --dtypes 1,3 --sizes-kib 1024,16384,262144,1048576 --sms 0 \
  --reps 10 > "$R/native.log" 2>&1
echo "native rc=$?"; grep -E '^(bf16|fp32) ' "$R/native.log" | cut -c1-100
pack
CUDA_VISIBLE_DEVICES=0 timeout 60 deno run -A --no-check bench/codec.ts --sizes 1M,16M,256M,1G --dtypes bf16,fp32 \
  --data gaussian,weights --sms 0 --repeat 15 --json "$R/codec.json" --svg "$R/codec.svg" > "$R/codec_cli.log" 2>&1
echo "codec cli rc=$?"; grep -E 'MiB|GiB' "$R/codec_cli.log" | grep -v sms= | tail -16 | cut -c1-120
pack
NCCL_P2P_DISABLE=1 timeout 45 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
  --sizes 1MiB,64MiB,256MiB,1GiB --dtypes bf16 --datasets gaussian --out "$R" --tag final_p2p_disabled \
  > "$R/p2p_bench.log" 2>&1
echo "p2p rc=$?"; grep -h -A8 'speedup vs plain' "$R/p2p_bench.log" | cut -c1-100
pack
collectives_round
