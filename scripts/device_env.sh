# Sourced on a GPU machine in the repo root after scripts/pack_device.sh's .carry-run/ was carried:
# unpacks Deno to /tmp/deno-bin, points the library, the weights and the commit id at the carried copies,
# and keeps NVLink multicast off (required on the shared machines).
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/deno-bin
[ -x /tmp/deno-bin/deno ] || { xz -dc .carry-run/deno.xz > /tmp/deno-bin/deno && chmod +x /tmp/deno-bin/deno; }
export PATH="/tmp/deno-bin:$PATH"
export UZIP_LIB="$PWD/.carry-run/libuzip.so"
export UZIP_WEIGHTS_DIR="$PWD/.carry-run/weights"
export UZIP_GIT_COMMIT="$(cat .carry-run/commit)"
export DENO_NO_UPDATE_CHECK=1
# Results go under $OUT/r; pack re-packs them into $OUT/results.tgz (the device tool returns at most 8
# files, so scripts call pack after each stage and a run cut short still returns what it measured).
R=$OUT/r
mkdir -p "$R"
pack() { tar -C "$OUT" -czf "$OUT/results.tgz.tmp" r && mv "$OUT/results.tgz.tmp" "$OUT/results.tgz"; }
