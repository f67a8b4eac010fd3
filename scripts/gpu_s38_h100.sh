#!/usr/bin/env bash
# Session 38, one call (H100 or H200): (1) the staged fp32 symbol plane (uzip_enc_sym_staged, cuda/enc_variant.h)
# merged with main's lean kernels: gpu_check --quick with the library's choices and with the staged kernel forced,
# gpu_check --lean (the encoder's templates changed under the lean kernels too), the GPU's fp32 stream against
# the CPU codec's at 1 GiB split and 2 GiB split + checksum (gpu_bench --input compares the smallest size byte
# for byte), the rule against UZIP_GPU_ENC_SYMSTAGE=0 at 256 MiB / 1 GiB / 4 GiB in two rounds; (2) where a
# small call's time goes: per-stage SM cycles (gpu_stages of the -DUZIP_STAGE_CLOCKS build in prof/) of bf16
# split at 1 and 16 MiB, 2^13 plain, 2^12 plain, 2^12 lean; (3) memcheck of the staged kernel's small cases.
# Carry [".carry-run"] with this build in gpu/ (xz), the profiling build in prof/ and the commit file.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
for f in .carry-run/prof/gpu_stages.xz; do [ -f "$f" ] && xz -dc "$f" > "${f%.xz}" && chmod +x "${f%.xz}"; done
PY=$(ls /opt/torch/.venv/bin/python3 2>/dev/null || echo python3)
$PY -c "import numpy as np; np.random.default_rng(7).normal(0,0.02,1<<22).astype(np.float32).tofile('/tmp/g32.bin')"
check_run quick 200 -- --quick
check_run sym_quick 200 UZIP_GPU_ENC_SYMSTAGE=1 -- --quick
check_run lean 200 -- --lean
echo "(${SECONDS}s)"
gpu_bench_run cpu_bytes_rule gpu -- --dtypes 3 --flags 2 --input /tmp/g32.bin --sizes-kib "1048576" --sms 0 --reps 3
gpu_bench_run cpu_bytes_rule_f3 gpu -- --dtypes 3 --flags 3 --input /tmp/g32.bin --sizes-kib "2097152" --sms 0 --reps 3
pack; echo "(${SECONDS}s)"
for r in 1 2; do
  gpu_bench_run r${r}_fp32_rule gpu -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
  gpu_bench_run r${r}_fp32_off gpu UZIP_GPU_ENC_SYMSTAGE=0 -- --dtypes 3 --flags 2 \
    --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
done
pack; echo "(${SECONDS}s)"
for cfg in "2 13" "2 12" "0x12 12"; do
  set -- $cfg
  UZIP_STAGES_FLAGS=$1 UZIP_STAGES_LOG2=$2 timeout 60 .carry-run/prof/gpu_stages 1 1024 16384 \
    > "$R/stages_f$1_l$2.txt" 2>&1
  echo "== stages flags $1 log2 $2 rc=$?"; cat "$R/stages_f$1_l$2.txt" | head -40
done
pack; echo "(${SECONDS}s)"
SAN_TOOLS=memcheck SAN_SUFFIX=sym san_run 150 UZIP_GPU_ENC_SYMSTAGE=1 -- --tiny
echo "(${SECONDS}s)"
