# Sourced on a GPU machine in the repo root after scripts/pack_device.sh's .carry-run/ was carried:
# unpacks Deno to /tmp/deno-bin, points the library, the weights and the commit id at the carried copies,
# and keeps NVLink multicast off (required on the shared machines).
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/deno-bin
[ -x /tmp/deno-bin/deno ] || [ ! -f .carry-run/deno.xz ] ||
  { xz -dc .carry-run/deno.xz > /tmp/deno-bin/deno && chmod +x /tmp/deno-bin/deno; }
# Libraries carried xz-compressed (.carry-run/DIR/libuzip.so.xz: several builds in one carry) next to the
# tools that load them through their $ORIGIN run path.
for f in .carry-run/*/libuzip.so.xz; do
  [ -f "$f" ] && [ ! -f "${f%.xz}" ] && xz -dc "$f" > "${f%.xz}"
done
# The native tools may travel xz-compressed too (the tracked tree plus Deno leave little of the 64 MiB).
for f in .carry-run/*/gpu_check.xz .carry-run/*/gpu_bench.xz .carry-run/*/copy_probe.xz; do
  [ -f "$f" ] && [ ! -f "${f%.xz}" ] && xz -dc "$f" > "${f%.xz}" && chmod +x "${f%.xz}"
done
# Raw weight files (PACK_WEIGHTS=data) unpacked to /tmp/wdata/weights_<dtype>.bin.
mkdir -p /tmp/wdata
for f in .carry-run/weights/*.bin.xz; do
  [ -f "$f" ] && [ ! -f "/tmp/wdata/$(basename "$f" .xz)" ] && xz -dc "$f" > "/tmp/wdata/$(basename "$f" .xz)"
done
export PATH="/tmp/deno-bin:$PATH"
export UZIP_LIB="$PWD/.carry-run/gpu/libuzip.so"
export UZIP_WEIGHTS_DIR="$PWD/.carry-run/weights"
export UZIP_GIT_COMMIT="$(cat .carry-run/commit)"
export DENO_NO_UPDATE_CHECK=1
# Results go under $OUT/r; pack re-packs them into $OUT/results.tgz (the device tool returns at most 8
# files, so scripts call pack after each stage and a run cut short still returns what it measured).
R=$OUT/r
mkdir -p "$R"
pack() { tar -C "$OUT" -czf "$OUT/results.tgz.tmp" r && mv "$OUT/results.tgz.tmp" "$OUT/results.tgz"; }
# sass_tools_out: the GPU machine's cuobjdump and nvdisasm as $OUT/TOOL.xz (outside $R), for reading SASS on the
# build machine, which has nvcc and ptxas only (Debian's CUDA 11.8 cuobjdump cannot read nvcc 13's cubins).
sass_tools_out() {
  local t p
  for t in cuobjdump nvdisasm; do
    p=$(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)
    [ -n "$p" ] && xz -T8 -6 -c "$p" > "$OUT/$t.xz" && echo "$t: $p"
  done
}
# Every run records its GPU (name, driver, max SM clock) and times its stages from here (echo "(${SECONDS}s)").
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
SECONDS=0
# The collectives GPU test (2 ranks: compressed == plain schedule == NCCL, bit for bit) and the
# collectives bench (all-reduce, all-gather, 64 and 256 MiB, NCCL_P2P_DISABLE=1, plain NCCL in the run).
collectives_round() {
  timeout 60 deno test -A --no-check tests/collectives_gpu_test.ts > "$R/coll_test.log" 2>&1
  echo "coll test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/coll_test.log" | grep -E 'comparisons|FAIL |NOTE ' | head -8
  NCCL_P2P_DISABLE=1 timeout 60 deno run -A --no-check scripts/launch.ts -n 2 bench/collectives.ts \
    --colls allReduce,allGather --sizes 64MiB,256MiB --dtype bf16 --modes never,always,auto --out "$R" \
    --tag p2p_disabled > "$R/coll_bench.log" 2>&1
  echo "coll bench rc=$?"; grep -E 'MiB' "$R/coll_bench.log" | sed 's/^\[rank 0\] //' | cut -c1-100 | tail -12
  pack
}
# check_run TAG TIMEOUT [VAR=value ...] -- ARGS...: gpu_check of this build (CHECK_DIR=DIR: of the build carried in
# .carry-run/DIR) with those environment assignments, its log as $R/TAG.log, then its rc and result lines; packs.
check_run() {
  local tag=$1 t=$2 envs=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout "$t" ".carry-run/${CHECK_DIR:-gpu}/gpu_check" "$@" > "$R/$tag.log" 2>&1
  echo "gpu_check $* ${envs[*]} rc=$?"; grep -E "^FAIL|lane streams|PASSED|FAILED" "$R/$tag.log" | head -6
  pack
}
# san_run TIMEOUT [VAR=value ...] -- ARGS...: compute-sanitizer memcheck, then racecheck, of gpu_check ARGS
# (CHECK_DIR=DIR: of the build carried in .carry-run/DIR) with those assignments (logs $R/san_TOOL[_SUFFIX].log,
# SUFFIX from SAN_SUFFIX; SAN_TOOLS="racecheck" runs only that one), their summaries; packs.
san_run() {
  local t=$1 envs=() tool
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    local log="$R/san_${tool}${SAN_SUFFIX:+_$SAN_SUFFIX}.log"
    env "${envs[@]}" timeout "$t" compute-sanitizer --tool $tool --error-exitcode 9 ".carry-run/${CHECK_DIR:-gpu}/gpu_check" "$@" > "$log" 2>&1
    echo "compute-sanitizer $tool ${envs[*]} rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" "$log" | head -3
    pack
  done
}
# racecheck_parts "PART:LIMIT ..." END: compute-sanitizer racecheck of gpu_check --tiny --PART for each part
# (session 39's split of --tiny: one run of the whole outlasts a call), of the build in .carry-run/${CHECK_DIR:-gpu},
# each under its LIMIT seconds and cut so that the call's clock stays under END (a part with under 40 s left is
# skipped), line-buffered so that a cut part shows how far it got; logs $R/san_racecheck_tiny_PART.log; packs.
racecheck_parts() {
  local part_s part t left G=".carry-run/${CHECK_DIR:-gpu}/gpu_check"
  for part_s in $1; do
    part=${part_s%:*} t=${part_s#*:} left=$(($2 - SECONDS))
    [ "$left" -lt 40 ] && { echo "racecheck --tiny --$part not run (${left}s left)"; continue; }
    [ "$t" -gt "$left" ] && t=$left
    timeout "$t" stdbuf -oL compute-sanitizer --tool racecheck --error-exitcode 9 "$G" --tiny --"$part" \
      > "$R/san_racecheck_tiny_$part.log" 2>&1
    echo "racecheck --tiny --$part rc=$? (limit ${t}s): $(grep -E "RACECHECK SUMMARY|FAILED|PASSED" \
      "$R/san_racecheck_tiny_$part.log" | head -3 | tr '\n' ' ')"
    pack; echo "(${SECONDS}s)"
  done
}
# lanes_enc_sweep DTYPES LOG2S VARIANTS SIZES: per dtype, gpu_bench of lane streams for every lane block
# size and encoder variant (UZIP_GPU_LANES_ENC_VARIANT), then the interleaved split layout; packs per dtype.
lanes_enc_sweep() {
  local d lg v
  for d in $1; do
    for lg in $2; do
      for v in $3; do
        gpu_bench_run "lanes${lg}_v${v}_d$d" gpu UZIP_GPU_LANES_ENC_VARIANT=$v -- --dtypes $d --flags 6 --log2 $lg \
          --sizes-kib "$4" --sms 0 --reps 10
      done
    done
    gpu_bench_run "split_d$d" gpu -- --dtypes $d --flags 2 --sizes-kib "$4" --sms 0 --reps 10
    pack
  done
}
# gpu_bench_run TAG DIR [VAR=value ...] -- ARGS...: gpu_bench of the build in .carry-run/DIR (gpu: this one;
# old, new1: earlier builds carried for an A/B in the same call) with those environment assignments;
# JSON and log under $R, one summary line (size, SM budget, ratio, compress / decompress TB/s, and the
# streams gpu_bench --input found different from the CPU codec's).
gpu_bench_run() {
  local tag=$1 dir=$2 envs=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout "${BENCH_TIMEOUT:-200}" ".carry-run/$dir/gpu_bench" "$R/$tag.json" --commit "$UZIP_GIT_COMMIT" \
    --cmd "${envs[*]} $dir/gpu_bench $*" "$@" > "$R/$tag.log" 2>&1
  echo "== $tag rc=$?: $(grep -E '^(bf16|fp16|fp32|fp8)' "$R/$tag.log" |
    awk '{printf "%s %s sms=%s r=%s %s/%s; ", $1, $2, $3, $4, $5, $6}') $(grep -c MISMATCH "$R/$tag.log") mismatches"
}
# gpu_bench_ab TEMPLATE [VAR=value ...] -- ARGS...: gpu_bench_run of the carried earlier build (old) and then
# of this one (gpu), same arguments, tagged TEMPLATE with %s replaced by old and by gpu (an A/B in one call).
gpu_bench_ab() {
  local tmpl=$1 dir
  shift
  for dir in old gpu; do
    # shellcheck disable=SC2059  # the template is the caller's format
    gpu_bench_run "$(printf "$tmpl" "$dir")" "$dir" "$@"
  done
}
# dtype_rows_ab "SIZES_KIB" MAX_MIB: gpu_bench_ab of the other codings at those sizes, whole chip: bf16 default
# layout, fp16 split, fp32 split, fp8 (tags bf16_default_%s, fp16_split_%s, fp32_split_%s, fp8_%s).
dtype_rows_ab() {
  local a=(--sizes-kib "$1" --sms 0 --reps 10 --max-mib "$2")
  gpu_bench_ab "bf16_default_%s" -- --dtypes 1 --flags 0 "${a[@]}"
  gpu_bench_ab "fp16_split_%s" -- --dtypes 2 --flags 2 "${a[@]}"
  gpu_bench_ab "fp32_split_%s" -- --dtypes 3 --flags 2 "${a[@]}"
  gpu_bench_ab "fp8_%s" -- --dtypes 4 --flags 0 "${a[@]}"
}
# gpu_bench_dirs TAG "DIRS" ARGS...: gpu_bench_run of each carried build named in DIRS (old, new1, gpu), same
# arguments, tagged TAG_DIR.
gpu_bench_dirs() {
  local tag=$1 dirs=$2 dir
  shift 2
  for dir in $dirs; do gpu_bench_run "${tag}_$dir" "$dir" -- "$@"; done
}
# gpu_bench_rounds TAG "DIR ..." ARGS...: gpu_bench_dirs TAG_r1 over the builds in that order, then TAG_r2 in
# reverse order (so that neither build always runs first on a warming machine); packs after each round.
gpu_bench_rounds() {
  local tag=$1 dirs=$2 rev="" d
  shift 2
  for d in $dirs; do rev="$d $rev"; done
  gpu_bench_dirs "${tag}_r1" "$dirs" "$@"
  pack; echo "(${SECONDS}s)"
  gpu_bench_dirs "${tag}_r2" "$rev" "$@"
  pack; echo "(${SECONDS}s)"
}
# small_large_rounds PREFIX "DIR ...": gpu_bench_rounds of those carried builds, bf16 split layout on the whole chip,
# at 64 KiB-64 MiB with 20 calls back to back (tag PREFIX_small) and at 256 MiB and 1 GiB (PREFIX_large): the A/B
# of a change at the kernels' start or end, which shows in small calls first (sessions 53-54). UNTIL (optional):
# each half starts only while the call's clock is under it (each takes ~10 s on an H100, session 56).
small_large_rounds() {
  [ "$SECONDS" -lt "${3:-999999}" ] && gpu_bench_rounds "$1_small" "$2" --dtypes 1 --flags 2 \
    --sizes-kib "64 1024 4096 16384 65536" --sms 0 --reps 20 --max-mib 64
  [ "$SECONDS" -lt "${3:-999999}" ] && gpu_bench_rounds "$1_large" "$2" --dtypes 1 --flags 2 \
    --sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024
  return 0
}
# end_form_ab "DIR ..." CHECK_DIR: the A/B of a change at the kernels' end (sessions 53-54): small_large_rounds bf16
# and one round of fp32 split at 1 and 16 MiB (tag fp32_DIR) over those carried builds, then variant_checks CHECK_DIR
# (the benches first: a call cut short still returns them); packs after each stage.
end_form_ab() {
  small_large_rounds bf16 "$1"
  gpu_bench_dirs fp32 "$1" --dtypes 3 --flags 2 --sizes-kib "1024 16384" --sms 0 --reps 20 --max-mib 64
  pack; echo "(${SECONDS}s)"
  variant_checks "$2"
  pack; echo "(${SECONDS}s)"
}
# fp32_main_h200 SECONDS_LIMIT: on an H200, with the call's clock under the limit, main's fp32 split rows (gpu/,
# 256 MiB-4 GiB, two rounds; tag fp32_main), owed to the README since session 50.
fp32_main_h200() {
  if grep -q H200 "$R/gpu.txt" && [ "$SECONDS" -lt "$1" ]; then
    gpu_bench_rounds fp32_main gpu --dtypes 3 --flags 2 --sizes-kib "262144 1048576 4194304" --sms 0 --reps 10 \
      --max-mib 4096
  fi
}
# bf16_split_ab_rounds "DIR ...": gpu_bench_rounds bf16_split over those carried builds, bf16 split layout 16 MiB,
# 256 MiB and 1 GiB on the whole chip (the A/B that an encoder trial's call runs first).
bf16_split_ab_rounds() {
  gpu_bench_rounds bf16_split "$1" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10 \
    --max-mib 1024
}
# pairs_fp32_real "DIR ...": pair coding (flags 10) of those carried builds, fp32 and real bf16 weights
# (/tmp/wdata/weights_bf16.bin: streams compared with the CPU codec's) at 256 MiB and 1 GiB on the whole chip, and
# main's byte coding (gpu/) of the weights as the yardstick (session 52's pair-encoder A/B calls).
pairs_fp32_real() {
  local w=/tmp/wdata/weights_bf16.bin a=(--sizes-kib "262144 1048576" --sms 0 --reps 10 --max-mib 1024)
  gpu_bench_dirs pairs_fp32 "$1" --dtypes 3 --flags 10 "${a[@]}"
  gpu_bench_dirs pairs_real "$1" --dtypes 1 --flags 10 --input "$w" "${a[@]}"
  gpu_bench_run bytes_real gpu -- --dtypes 1 --flags 2 --input "$w" "${a[@]}"
}
# codec_sweep: gpu_bench of this build (gpu/) for bf16, fp16, fp32 and fp8e4m3 in the split and the default
# layouts at 1 MiB, 16 MiB, 256 MiB and 1 GiB on the whole chip, tagged sweep_dD_fF; packs after each dtype.
codec_sweep() {
  local d f
  for d in 1 2 3 4; do
    for f in 2 0; do
      gpu_bench_run "sweep_d${d}_f$f" gpu -- --dtypes $d --flags $f --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
    done
    pack
  done
}
# bf16_split_rounds: the bf16 split layout of old/, new1/ and this build (1 MiB - 1 GiB), then of new1/ and
# this build once more (16 MiB - 1 GiB): the two-round comparison of session 17's A/B calls; packs.
bf16_split_rounds() {
  gpu_bench_dirs r1_d1_f2 "old new1 gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  gpu_bench_dirs r2_d1_f2 "new1 gpu" --dtypes 1 --flags 2 --sizes-kib "16384 262144 1048576" --sms 0 --reps 10
  pack
}
# codec_cli TAG TIMEOUT ARGS...: the codec CLI (bench/codec.ts ARGS) under `timeout -s TERM` (it writes what it
# measured when stopped): $R/TAG.{json,svg,txt,log}; prints its rc and the table's rows that match CLI_SHOW
# (default: every row, at most 90 lines); packs.
codec_cli() {
  local tag=$1 t=$2
  shift 2
  timeout -s TERM "$t" deno run -A --no-check bench/codec.ts --json "$R/$tag.json" --svg "$R/$tag.svg" "$@" \
    > "$R/$tag.txt" 2> "$R/$tag.log"
  echo "== $tag rc=$? (${SECONDS}s)"; grep -E "${CLI_SHOW:-.}" "$R/$tag.txt" | head -90
  pack
}
# p2p_suite: the P2P GPU suite (tests/p2p_gpu_test.ts: transfers to self on one GPU, the rest on two), log
# $R/p2p_gpu_test.log, its summary; packs.
p2p_suite() {
  timeout 300 deno test -A --no-check tests/p2p_gpu_test.ts > "$R/p2p_gpu_test.log" 2>&1
  echo "p2p_gpu_test rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/p2p_gpu_test.log" | grep -E "SELF OK|passed|failed|SKIP" | tail -5
  pack
}
# deno_gpu_suites: the TypeScript GPU tests (device buffers, streams, the codec on device and host arrays,
# the collectives' GPU simulation, communicator errors), log $R/deno_gpu_tests.log, their summary; packs.
deno_gpu_suites() {
  timeout 200 deno test -A --no-check tests/device_gpu_test.ts tests/gpu_codec_args_test.ts \
    tests/collectives_gpu_sim_test.ts tests/comm_errors_test.ts > "$R/deno_gpu_tests.log" 2>&1
  echo "deno test (GPU suites) rc=$?"; sed 's/\x1b\[[0-9;]*m//g' "$R/deno_gpu_tests.log" | grep -E "passed|failed|SKIP|FAILED" | tail -8
  pack
}
# variant_checks DIR: the gate of a trial build carried in .carry-run/DIR before its benches: gpu_check --quick and
# --lean ($R/check_DIR.log, $R/check_lean_DIR.log), then memcheck of --tiny ($R/san_memcheck.log); packs.
variant_checks() {
  CHECK_DIR=$1 check_run "check_$1" 200 -- --quick
  CHECK_DIR=$1 check_run "check_lean_$1" 200 -- --lean
  CHECK_DIR=$1 SAN_TOOLS=memcheck san_run 200 -- --tiny
}
# quick_checks: gpu_check --quick of this build, then memcheck and racecheck of gpu_check --tiny (the gate
# every A/B call runs before its benches), with the stage clock after each.
quick_checks() {
  check_run check 200 -- --quick
  echo "(${SECONDS}s)"
  san_run 200 -- --tiny
  echo "(${SECONDS}s)"
}
# quick_memcheck: unless CHECK=0, gpu_check --quick of this build and memcheck of its --tiny cases (the gate of a
# change racecheck cannot see, such as a prefetch), then the stage clock.
quick_memcheck() {
  if [ "${CHECK:-1}" != 0 ]; then
    check_run check 200 -- --quick
    SAN_TOOLS=memcheck san_run 200 -- --tiny
  fi
  echo "(${SECONDS}s)"
}
# encoder_checks: gpu_check --quick of this build with the library's encoder choice and with lone warps forced
# (UZIP_GPU_ENC_VARIANT=0), then memcheck and racecheck of gpu_check --tiny (the library's choice: warp pairs
# for its small cases), with the stage clock after each (session 18's gate for the warp pairs).
encoder_checks() {
  check_run check 200 -- --quick
  check_run check_v0 200 UZIP_GPU_ENC_VARIANT=0 -- --quick
  echo "(${SECONDS}s)"
  san_run 200 -- --tiny
  echo "(${SECONDS}s)"
}
# types_ab: old/ against this build, same call: bf16 split twice (1 MiB - 1 GiB), fp32 / fp16 / fp8 split
# and bf16 default layout once (1 - 256 MiB); packs.
types_ab() {
  local r d
  for r in 1 2; do
    gpu_bench_dirs "r${r}_d1_f2" "old gpu" --dtypes 1 --flags 2 --sizes-kib "1024 16384 262144 1048576" --sms 0 --reps 10
  done
  pack
  for d in 3 2 4; do
    gpu_bench_dirs "r1_d${d}_f2" "old gpu" --dtypes $d --flags 2 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  done
  gpu_bench_dirs r1_d1_f0 "old gpu" --dtypes 1 --flags 0 --sizes-kib "1024 16384 262144" --sms 0 --reps 10
  pack
}
# Data whose remainder planes code (every block ANS on both planes), from Gaussian(0, 0.02) by
# round-to-nearest-even: /tmp/wdata/lowbits_bf16.bin (bf16, low 4 mantissa bits cleared) and
# /tmp/wdata/bf16vals_fp32.bin (fp32 holding bf16 values). Needs numpy (the machine's torch venv has it).
make_mantissa_data() {
  local py=python3
  [ -x /opt/torch/.venv/bin/python ] && py=/opt/torch/.venv/bin/python
  "$py" - <<'PY'
import numpy as np
def bf16_bits(seed):
    x = (np.random.default_rng(seed).standard_normal(4 << 20) * 0.02).astype(np.float32).view(np.uint32)
    return (x + 0x7FFF + ((x >> 16) & 1)) >> 16
(bf16_bits(20261201).astype(np.uint16) & np.uint16(0xFFF0)).tofile("/tmp/wdata/lowbits_bf16.bin")
(bf16_bits(20261202) << 16).astype(np.uint32).tofile("/tmp/wdata/bf16vals_fp32.bin")
PY
}
# ncu_kernel KERNEL SIZE_KIB FLAGS TAG [GPU_BENCH_ARGS...]: ncu_full of one bf16 call of the codec kernel whose
# name starts with KERNEL, in the lineinfo build (.carry-run/li, PACK_LI=1; NCU_TOOLS=gpu takes .carry-run/gpu).
ncu_kernel() {
  local k=$1 sz=$2 fl=$3 tag=$4
  shift 4
  ncu_full "$tag" "${NCU_TOOLS:-li}" "^$k" --dtypes 1 --flags "$fl" --sizes-kib "$sz" --sms 0 --reps 1 "$@"
}
# ncu_full TAG DIR KERNEL_REGEX ARGS...: ncu --set full of the fourth launch of the kernel matching KERNEL_REGEX in
# .carry-run/DIR/gpu_bench ARGS (one size, --reps 1): the details page as $R/ncu_TAG_details.txt and the SASS page
# with stall samples per instruction (and source lines, in a lineinfo build) as $R/ncu_TAG_sass.csv.xz; prints its
# rc and the key figures; packs.
ncu_full() {
  local tag=$1 dir=$2 k=$3
  shift 3
  timeout 150 ncu --clock-control none --set full --import-source yes -k "regex:$k" -c 1 --launch-skip 3 -f \
    -o "$R/ncu_$tag" ".carry-run/$dir/gpu_bench" /tmp/x.json "$@" > "$R/ncu_${tag}_run.txt" 2>&1
  echo "ncu $tag rc=$?"
  ncu -i "$R/ncu_$tag.ncu-rep" --page details > "$R/ncu_${tag}_details.txt" 2>&1
  ncu -i "$R/ncu_$tag.ncu-rep" --page source --csv --print-source sass > "$R/ncu_${tag}_sass.csv" 2>&1
  rm -f "$R/ncu_$tag.ncu-rep"; xz -T8 -f "$R/ncu_${tag}_sass.csv"
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Active Warps Per|Registers Per|Executed Instructions  " \
    "$R/ncu_${tag}_details.txt" | head -12
  pack
}
# ncu_sections DIR TAG ARGS...: ncu of the fourth compress kernel of .carry-run/DIR/gpu_bench ARGS, sections
# WarpStateStats, SchedulerStats, MemoryWorkloadAnalysis, InstructionStats, SpeedOfLight as a raw csv page, to
# $R/ncu_raw_TAG.csv.xz (stall reasons, issue, memory); prints its rc; packs.
ncu_sections() {
  local dir=$1 tag=$2
  shift 2
  timeout "${NCU_TIMEOUT:-100}" ncu --clock-control none --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section InstructionStats --section SpeedOfLight -k "regex:^compress_kernel" \
    -c 1 --launch-skip 3 --page raw --csv ".carry-run/$dir/gpu_bench" /tmp/x.json "$@" > "$R/ncu_raw_$tag.csv" 2>&1
  echo "ncu $tag rc=$?"; xz -T4 -f "$R/ncu_raw_$tag.csv"
  pack
}
# ncu_compress TAG [VAR=value ...] -- ARGS...: ncu of the 4th compress kernel launch of gpu_bench (NCU_DIR: the build
# carried in .carry-run/NCU_DIR, default gpu) with ARGS
# (one size, --reps 1) and those assignments: DRAM bytes and throughput, L2 read hits, issue, instructions,
# duration (or the metrics NCU_METRICS names, e.g. breakdown:lts__throughput...), to $R/ncu_TAG.txt; prints its
# rc and the metric lines; packs.
ncu_compress() {
  local tag=$1 envs=()
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local m=dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,gpu__time_duration.sum,sm__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum
  m=$m,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
  env "${envs[@]}" timeout "${NCU_TIMEOUT:-100}" ncu --clock-control none --metrics "${NCU_METRICS:-$m}" \
    -k "regex:^compress_kernel" -c 1 --launch-skip 3 ".carry-run/${NCU_DIR:-gpu}/gpu_bench" /tmp/x.json "$@" \
    > "$R/ncu_$tag.txt" 2>&1
  echo "== ncu $tag rc=$?"; grep -E "__" "$R/ncu_$tag.txt"
  pack
}
