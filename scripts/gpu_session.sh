#!/usr/bin/env bash
# One consolidated run on a 2-GPU machine (device time is scarce, so everything that needs a GPU runs in
# one call, most important first; every stage has its own timeout and the results are re-packed into
# $OUT/results.tgz after each stage, so a run cut short still returns what it measured).
#
# Expects (made here by scripts/pack_device.sh and the GPU codec's scripts/gpu_check.sh --build):
#   .carry-run/   deno.xz, libuzip.so (this tree), weights/*.onnx, commit
#   .carry-run/gpu/   gpu_check, gpu_bench, libuzip.so (this tree's native tools)
#   .carry-run/old/   optional: gpu_check, gpu_bench, libuzip.so of earlier kernels (fallback and baseline)
# Stages: 1 codec bit-exactness (new kernels; fall back to old ones if they fail), 2 codec CLI bench and the
# Deno GPU test suite (one GPU each, in parallel), 3 collectives test + bench, 4 P2P bench (slow path),
# 5 native kernels new vs old. Usage on the device: bash scripts/gpu_session.sh
set -u
source scripts/device_env.sh
stamp() { echo "== $(date +%T) $*" | tee -a "$R/session.log"; }
C=$UZIP_GIT_COMMIT
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv | tee "$R/gpus.csv"
nvidia-smi topo -m > "$R/topo.txt" 2>&1

stamp "1 codec bit-exactness: gpu_check --quick (new kernels)"
if timeout 80 .carry-run/gpu/gpu_check --quick > "$R/gpu_check_new.log" 2>&1; then
  stamp "new kernels PASS"
else
  stamp "new kernels FAILED (rc=$?)"
  tail -5 "$R/gpu_check_new.log" | tee -a "$R/session.log"
  if [ -f .carry-run/old/libuzip.so ]; then
    stamp "falling back to the old library for everything below"
    export UZIP_LIB=$PWD/.carry-run/old/libuzip.so
  fi
fi
grep -E 'PASS|FAIL|mismatch|cases' "$R/gpu_check_new.log" | tail -3
pack

stamp "2 codec CLI (GPU 0) and Deno GPU tests (GPU 1)"
(CUDA_VISIBLE_DEVICES=0 timeout 95 deno run -A --no-check bench/codec.ts --sizes 64K,1M,16M,256M,1G \
  --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights --sms 0 --repeat 15 \
  --json "$R/codec_full_chip.json" --svg "$R/codec_full_chip.svg" > "$R/codec_cli.log" 2>&1
 echo "codec cli rc=$?" >> "$R/session.log") &
(CUDA_VISIBLE_DEVICES=1 timeout 60 deno test -A --no-check tests/device_gpu_test.ts tests/codec_test.ts \
  > "$R/deno_gpu_tests.log" 2>&1
 echo "deno gpu tests rc=$?" >> "$R/session.log"
 CUDA_VISIBLE_DEVICES=1 timeout 35 deno run -A --no-check bench/codec.ts --sizes 16M,256M,1G --dtypes bf16 \
  --data gaussian --sms 8,16,32 --repeat 10 --json "$R/codec_sms.json" --svg "$R/codec_sms.svg" \
  > "$R/codec_cli_sms.log" 2>&1
 echo "codec cli sms rc=$?" >> "$R/session.log") &
wait
tail -4 "$R/session.log"
grep -E 'passed|failed|FAILED' "$R/deno_gpu_tests.log" | tail -3
tail -32 "$R/codec_cli.log" | cut -c1-150
pack

stamp "3 collectives: GPU exactness test, then bench (plain NCCL vs compressed vs auto)"
timeout 60 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
echo "coll test rc=$?" | tee -a "$R/session.log"
grep -E 'comparisons|FAIL|passed|failed' "$R/coll_test.log" | cut -c1-200 | tail -6
for link in p2p_disabled nvlink; do
  env $([ $link = p2p_disabled ] && echo NCCL_P2P_DISABLE=1) timeout 50 deno run -A --no-check \
    scripts/launch.ts -n 2 bench/collectives.ts --colls allReduce,allGather --sizes 64MiB,256MiB --dtype bf16 \
    --modes never,always,auto --out "$R" --tag "$link" --commit "$C" > "$R/coll_bench_$link.log" 2>&1
  echo "coll bench $link rc=$?" | tee -a "$R/session.log"
  grep -E 'auto model|MiB' "$R/coll_bench_$link.log" | sed 's/^\[rank 0\] //' | cut -c1-120 | tail -8
done
pack

stamp "4 P2P: bf16 with NCCL_P2P_DISABLE=1, plain vs compressed vs auto"
NCCL_P2P_DISABLE=1 timeout 50 deno run -A --no-check scripts/launch.ts -n 2 bench/p2p.ts \
  --sizes 1MiB,64MiB,256MiB,1GiB --dtypes bf16 --datasets gaussian --out "$R" --tag final_p2p_disabled \
  --commit "$C" > "$R/p2p_bench.log" 2>&1
echo "p2p bench rc=$?" | tee -a "$R/session.log"
grep -h -A10 'speedup vs plain' "$R/p2p_bench.log" | cut -c1-110
pack

stamp "5 native kernels, new vs old (bf16, fp32)"
for v in gpu old; do
  [ -x ".carry-run/$v/gpu_bench" ] || continue
  timeout 30 ".carry-run/$v/gpu_bench" "$R/native_$v.json" --dtypes 1,3 --sizes-kib 1024,16384,262144,1048576 \
    --sms 0 --reps 10 > "$R/native_$v.log" 2>&1
  echo "native $v rc=$?" | tee -a "$R/session.log"
  grep -E 'TB/s|bf16|fp32' "$R/native_$v.log" | head -12 | cut -c1-130
done
stamp "done"
pack
