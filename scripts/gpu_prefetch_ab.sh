#!/usr/bin/env bash
# One H200 call (written in session 10, not yet run: the device was withdrawn): the encoder's early
# next-block ticket and L2 prefetch (EncParams::prefetch, UZIP_GPU_ENC_PREFETCH: 0 none = the default and
# the earlier kernel's order, 1 after the symbol chain, 2 before it), same build, same call. First
# gpu_check (bytes equal the CPU's) in modes 0 and 1 (full) and mode 2 (--quick) and memcheck --tiny in mode 1,
# then gpu_bench ROUNDS interleaved rounds of every mode, both layouts, DTYPES at SIZES
# (KiB), then 2^13 against 2^14 blocks at 256 MiB and 1 GiB (L2 residency of the ANS pass's re-read).
# Usage (device, after PACK_WEIGHTS=none bash scripts/pack_device.sh here): bash scripts/gpu_prefetch_ab.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm --format=csv > "$R/gpus.csv"
timeout 200 .carry-run/gpu/gpu_check > "$R/check_pf0.log" 2>&1
echo "== gpu_check pf0 (default) rc=$?"; grep -E 'PASSED|FAILED' "$R/check_pf0.log" | tail -2
UZIP_GPU_ENC_PREFETCH=1 timeout 200 .carry-run/gpu/gpu_check > "$R/check_pf1.log" 2>&1
echo "== gpu_check pf1 rc=$?"; grep -E 'PASSED|FAILED' "$R/check_pf1.log" | tail -2
UZIP_GPU_ENC_PREFETCH=2 timeout 200 .carry-run/gpu/gpu_check --quick > "$R/check_pf2.log" 2>&1
echo "== gpu_check --quick pf2 rc=$?"; grep -E 'PASSED|FAILED' "$R/check_pf2.log" | tail -2
UZIP_GPU_ENC_PREFETCH=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .carry-run/gpu/gpu_check --tiny > "$R/memcheck.log" 2>&1
echo "== memcheck rc=$?"; tail -1 "$R/memcheck.log"
pack
SZ=${SIZES:-16384,65536,262144,1048576}
DT=${DTYPES:-1,3}  # bf16, fp32 (fp16 with DTYPES=1,2,3: the call then nears its 600 s)
bench() {  # tag, prefetch mode, flags, extra args
  local tag=$1 pf=$2 fl=$3; shift 3
  UZIP_GPU_ENC_PREFETCH=$pf timeout 120 .carry-run/gpu/gpu_bench "$R/$tag.json" --dtypes "$DT" --flags "$fl" \
    --sizes-kib "$SZ" --sms 0 --reps 10 --commit "$UZIP_GIT_COMMIT" \
    --cmd "UZIP_GPU_ENC_PREFETCH=$pf gpu_bench --dtypes $DT --flags $fl --sizes-kib $SZ $*" "$@" > "$R/$tag.log" 2>&1
  echo "== $tag rc=$?"
}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for fl in 2 0; do for pf in 0 1 2; do bench "pf${pf}_f${fl}_r$round" "$pf" "$fl"; done; done
  pack
done
SZ=262144,1048576 DT=1,3
for pf in 0 1; do bench "log2_13_pf${pf}_f2" "$pf" 2 --log2 13; bench "log2_14_pf${pf}_f2" "$pf" 2 --log2 14; done
pack
# compress TB/s per mode (r1 r2): dtype size | pf0 (none) | pf1 (after) | pf2 (before)
for fl in 2 0; do
  echo "== flags $fl compress TB/s: dtype size | none r1 r2 | after r1 r2 | before r1 r2   (decompress: none r1)"
  paste <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf0_f${fl}_r1.log" | awk '{printf "%s %s | %s",$1,$2,$5}') \
        <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf0_f${fl}_r2.log" | awk '{printf "%s |",$5}') \
        <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf1_f${fl}_r1.log" | awk '{printf "%s",$5}') \
        <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf1_f${fl}_r2.log" | awk '{printf "%s |",$5}') \
        <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf2_f${fl}_r1.log" | awk '{printf "%s",$5}') \
        <(grep -hE '^(bf16|fp16|fp32) ' "$R/pf2_f${fl}_r2.log" | awk '{printf "%s   (%s)",$5,$6}')
done
echo "== split layout, log2 13 vs 14, compress/decompress TB/s and ratio: pf0 (none) | pf1 (after)"
for l in 13 14; do
  paste <(grep -hE '^(bf16|fp32) ' "$R/log2_${l}_pf0_f2.log" | awk -v l=$l '{printf "2^%s %s %s %s | %s %s",l,$1,$2,$4,$5,$6}') \
        <(grep -hE '^(bf16|fp32) ' "$R/log2_${l}_pf1_f2.log" | awk '{printf "| %s %s",$5,$6}')
done
