#!/usr/bin/env bash
# Session 32, call 3: the pair decoder software-pipelined (the join and stores of group g - 1 between the
# steps of group g; gpu/) against call 2's (base/, e75685b), and one redux for the table build's sums (the
# encoder's too): gpu_check --pairs --quick and the sanitizers of gpu/, then pair decoding of both builds
# against byte decoding (gpu/), bf16 2^14 and 2^15, fp32, real bf16 weights, two rounds; ncu of gpu/'s pair
# decoder. Carry [".carry-run"] (gpu/, base/ xz, bf16 weights).
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
check_run pairs_quick 240 -- --pairs --quick
tail -2 "$R/pairs_quick.log"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 .carry-run/gpu/gpu_check --pairs --tiny > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|pair coding" "$R/san_$tool.log" | head -3
done
pack; echo "(${SECONDS}s)"
for round in 1 2; do
  gpu_bench_dirs "r${round}_bf16_f10" "base gpu" --dtypes 1 --flags 10 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
  gpu_bench_dirs "r${round}_l15_bf16_f10" "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 --log2 15
  pack; echo "(${SECONDS}s)"
done
gpu_bench_run bf16_f2 gpu -- --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs fp32_f10 "base gpu" --dtypes 3 --flags 10 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_run fp32_f2 gpu -- --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10
gpu_bench_dirs w_bf16_f10 "base gpu" --dtypes 1 --flags 10 --sizes-kib "262144 1048576" --sms 0 --reps 10 --input /tmp/wdata/weights_bf16.bin
pack; echo "(${SECONDS}s)"
timeout 150 ncu --clock-control none --set full -k "regex:^decompress" -c 1 --launch-skip 3 -f -o "$R/ncu_pairdec" \
  .carry-run/gpu/gpu_bench /tmp/x.json --dtypes 1 --flags 10 --sizes-kib 1048576 --sms 0 --reps 1 > "$R/ncu_run.txt" 2>&1
ncu -i "$R/ncu_pairdec.ncu-rep" --page details > "$R/ncu_pairdec_details.txt" 2>&1
rm -f "$R/ncu_pairdec.ncu-rep"
grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Active Warps Per|Registers Per|Executed Instructions  |Achieved Occupancy|DRAM Throughput" \
  "$R/ncu_pairdec_details.txt" | head -12
pack; echo "(${SECONDS}s)"
