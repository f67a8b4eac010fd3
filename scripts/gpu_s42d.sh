#!/usr/bin/env bash
# Session 42, the call for both changes (gpu/: this build; old/: main at 18fb01e):
# (A) the byte-coding decoders take lean streams (decode_blocks_lean_out_of_line, cuda/gpu_decode.cuh);
# (B) the default coding of split bf16 / fp32 calls of at most 16 MiB is lean sections at 2^12 (uzip_default_lean).
# (1) scripts/gpu_s41a.sh on this build (P2P to self, collectives on one rank, communicator errors: main's nccl/).
# (2) gpu_check --quick: every GPU stream equal to the CPU codec's (the small split cases now lean), lean streams
#     through the default entries too, lean decode-reduce through uzipGpuDecompressReduce.
# (3) old against new, same call: split bf16 / fp32 (small calls changed by B: compress and decode as a user
#     calls them, decode through the default entry), the default layout (A's refactor of the decoders).
# (4) The one-round decoder forced (128 registers for the out-of-line lean path) at 1-16 MiB.
# (5) The TypeScript device suite. (6) memcheck of the lean cases (damaged streams through every entry).
# Carry [".carry-run"]: gpu/, old/ (gpu_bench, libuzip.so), deno.xz, the commit file; bench/results/ moved out.
set -u
bash scripts/gpu_s41a.sh
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run check 200 -- --quick
echo "(${SECONDS}s)"
gpu_bench_dirs ab_d1_f2 "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs ab_d3_f2 "old gpu" --dtypes 3 --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_dirs ab_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
gpu_bench_dirs ab_d2_f0 "old gpu" --dtypes 2 --flags 0 --sizes-kib "16384 262144" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
gpu_bench_run v3_d1_f2 gpu UZIP_GPU_DEC_VARIANT=3 -- --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384" --sms 0 --reps 10
gpu_bench_run r2_d1_f2_gpu gpu -- --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384" --sms 0 --reps 10
gpu_bench_run r2_d1_f2_old old -- --dtypes 1 --flags 2 --sizes-kib "1024 4096 16384" --sms 0 --reps 10
pack; echo "(${SECONDS}s)"
timeout 120 deno test -A --no-check tests/device_gpu_test.ts > "$R/deno_device.log" 2>&1
echo "deno test device_gpu_test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/deno_device.log" | grep -E "passed|failed|FAILED|error" | tail -5
pack; echo "(${SECONDS}s)"
SAN_TOOLS=memcheck SAN_SUFFIX=lean san_run 120 -- --tiny --lean
echo "(${SECONDS}s)"
