source scripts/device_env.sh
MEMCHECK=0 bash scripts/gpu_variants.sh "${VARS:-0 1}" 2>&1 | grep -v "^xz"
export CUDA_VISIBLE_DEVICES=0
O=$R
timeout 60 .carry-run/prof/gpu_stages 1 1024 262144 > "$O/stages_bf16.txt" 2>&1
NCU="ncu --clock-control none --set full --import-source yes"
for k in compress decompress; do
  timeout 100 $NCU -k regex:^$k -c 1 --launch-skip 3 -f -o "$O/ncu_$k" .carry-run/li/gpu_bench /tmp/x.json --dtypes 1 \
    --sizes-kib 262144 --sms 0 --reps 1 > "$O/ncu_${k}_run.txt" 2>&1
  ncu -i "$O/ncu_$k.ncu-rep" --page details > "$O/ncu_${k}_details.txt" 2>&1
  ncu -i "$O/ncu_$k.ncu-rep" --page source --csv --print-source sass > "$O/ncu_${k}_sass.csv" 2>&1
  rm -f "$O/ncu_$k.ncu-rep"
done
pack
cat $O/stages_bf16.txt | grep -v "^  dec"
for k in compress decompress; do
  echo "== ncu $k"; grep -E "Duration|Warp Cycles Per Issued|Executed Instructions  |Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps" "$O/ncu_${k}_details.txt" | head -24
done
