#!/usr/bin/env bash
# Device-side profiling of the GPU codec (built here by scripts/gpu_check.sh --build and
# scripts/gpu_prof_build.sh): per-stage cycle counts, a short bench, ncu reports of one compress and one
# decompress launch (bf16 16 MiB), SASS. Everything under ${OUT:-bench/out}; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
O=${OUT:-bench/out}
mkdir -p "$O"
export NCCL_NVLS_ENABLE=0 CUDA_VISIBLE_DEVICES=0
G=.carry/gpu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,pstate --format=csv > "$O/smi.txt" 2>&1
timeout 40 $G/prof/gpu_stages 1 64 1024 16384 262144 > "$O/stages_bf16.txt" 2>&1
timeout 25 $G/prof/gpu_stages 3 16384 262144 > "$O/stages_fp32.txt" 2>&1
timeout 40 $G/gpu_bench "$O/bench.json" --dtypes 1,3 --sizes-kib 64,1024,16384,262144 --sms 0 --reps 10 > "$O/bench.txt" 2>&1
NCU="ncu --clock-control none --set full --import-source yes"
for k in compress decompress; do
  timeout 45 $NCU -k regex:^$k -c 1 --launch-skip 3 -f -o "$O/ncu_$k" $G/li/gpu_bench /tmp/x.json --dtypes 1 \
    --sizes-kib 16384 --sms 0 --reps 1 > "$O/ncu_${k}_run.txt" 2>&1
  ncu -i "$O/ncu_$k.ncu-rep" --page details > "$O/ncu_${k}_details.txt" 2>&1
  ncu -i "$O/ncu_$k.ncu-rep" --page source --csv --print-source sass > "$O/ncu_${k}_sass.csv" 2>&1
done
cuobjdump -sass $G/libuzip.so > "$O/sass.txt" 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv >> "$O/smi.txt" 2>&1
echo "==== SUMMARY"; cat "$O/smi.txt" "$O/stages_bf16.txt" "$O/stages_fp32.txt" "$O/bench.txt"
for k in compress decompress; do
  echo "== ncu $k"; grep -E "Duration|SM Frequency|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Executed Instructions  |Issue Slots Busy|Block Limit Shared|Dynamic Shared Memory Per|Grid Size|Block Size" "$O/ncu_${k}_details.txt" | head -20
done
ls -la "$O"
