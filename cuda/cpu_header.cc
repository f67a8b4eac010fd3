// CPU codec: stream header read/write, the data checksum, per-thread scratch and the byte histogram.
#include <stdlib.h>

#include "cpu_internal.h"
#include "lanes_format.h"

// An AVX2 and a plain build of the checksum, chosen at load time by an ifunc resolver; ThreadSanitizer's
// runtime is not up when resolvers run (its build of the native tests crashed there), so it gets the plain one.
#if defined(__SANITIZE_THREAD__)
#define UZIP_CHECKSUM_CLONES
#else
#define UZIP_CHECKSUM_CLONES __attribute__((target_clones("avx2", "default")))
#endif

namespace uzip_cpu {

int read_header(const uint8_t* src, uint64_t src_bytes, Header* h) {
  if (!src && src_bytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is null");
  if (src_bytes < UZIP_HEADER_BYTES)
    return uzipSetError(UZIP_ERR_TRUNCATED, "stream is %llu bytes, shorter than the 64-byte header",
                        (unsigned long long)src_bytes);
  if (ld32(src + UZIP_H_MAGIC) != UZIP_MAGIC)
    return uzipSetError(UZIP_ERR_CORRUPT, "bad magic 0x%08x (not a uzip stream)", ld32(src + UZIP_H_MAGIC));
  uint32_t version = src[UZIP_H_VERSION];
  if (version != UZIP_VERSION)
    return uzipSetError(UZIP_ERR_UNSUPPORTED, "stream format version %u, this build reads version %u",
                        version, UZIP_VERSION);
  uint32_t words[14];
  for (int i = 0; i < 14; i++) words[i] = ld32(src + 4 * i);
  uint32_t check = uzip_header_check(words), stored = ld32(src + UZIP_H_CHECK);
  if (check != stored)
    return uzipSetError(UZIP_ERR_CORRUPT, "header check mismatch (stored 0x%08x, computed 0x%08x)", stored,
                        check);
  if (ld32(src + UZIP_H_RESERVED) != 0) return uzipSetError(UZIP_ERR_CORRUPT, "header reserved word not zero");
  h->dtype = src[UZIP_H_DTYPE];
  h->flags = src[UZIP_H_FLAGS];
  h->log2_block = src[UZIP_H_LOG2BLOCK];
  if (h->dtype >= UZIP_DTYPE_COUNT) return uzipSetError(UZIP_ERR_UNSUPPORTED, "unknown dtype %u", h->dtype);
  if (h->flags & ~UZIP_FLAGS_KNOWN) return uzipSetError(UZIP_ERR_UNSUPPORTED, "unknown flags 0x%02x", h->flags);
  if ((h->flags & UZIP_FLAG_LANES) && (!(h->flags & UZIP_FLAG_SPLIT) || h->log2_block > UZIP_LANES_LOG2_BLOCK_MAX))
    return uzipSetError(UZIP_ERR_CORRUPT, "lane-stream flag without the split layout or with 2^%u-element blocks",
                        h->log2_block);
  if ((h->flags & UZIP_FLAG_PAIRS) && (!uzip_pairs_dtype_ok(h->dtype) || (h->flags & UZIP_FLAG_LANES)))
    return uzipSetError(UZIP_ERR_CORRUPT, "pair-coding flag with dtype %u or with lane streams", h->dtype);
  if ((h->flags & UZIP_FLAG_LEAN) && (h->flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS)))
    return uzipSetError(UZIP_ERR_CORRUPT, "lean-sections flag with lane streams or pair coding");
  if (h->log2_block < UZIP_LOG2_BLOCK_MIN || h->log2_block > UZIP_LOG2_BLOCK_MAX)
    return uzipSetError(UZIP_ERR_CORRUPT, "log2Block %u outside %u..%u", h->log2_block, UZIP_LOG2_BLOCK_MIN,
                        UZIP_LOG2_BLOCK_MAX);
  h->width = uzip_dtype_width(h->dtype);
  h->rem_width = uzip_dtype_rem_width(h->dtype);
  h->count = ld64(src + UZIP_H_COUNT);
  h->total = ld64(src + UZIP_H_TOTAL);
  h->nblocks = ld32(src + UZIP_H_NBLOCKS);
  h->stored_checksum = ld32(src + UZIP_H_CHECKSUM);
  if (!(h->flags & UZIP_FLAG_CHECKSUM) && h->stored_checksum != 0)
    return uzipSetError(UZIP_ERR_CORRUPT, "checksum field is not zero although the checksum flag is clear");
  // nblocks is a u32, so a count needing more blocks is forged; computed without overflow. Once it
  // matches, count < 2^48 and every product below fits in 64 bits.
  uint64_t full = h->count >> h->log2_block;
  uint64_t want = full + ((h->count & (((uint64_t)1 << h->log2_block) - 1)) != 0);
  if (want != h->nblocks)
    return uzipSetError(UZIP_ERR_CORRUPT, "nblocks %llu does not match count %llu at 2^%u elements per block",
                        (unsigned long long)h->nblocks, (unsigned long long)h->count, h->log2_block);
  h->raw_bytes = h->count * h->width;
  h->rem_offset = uzip_rem_offset(h->flags);
  h->dir_offset = uzip_dir_offset(h->count, h->dtype, h->flags, h->log2_block);
  h->payload_offset = uzip_payload_offset(h->count, h->dtype, h->flags, h->log2_block);
  if (ld64(src + UZIP_H_REM_OFFSET) != h->rem_offset)
    return uzipSetError(UZIP_ERR_CORRUPT, "remainder-plane offset %llu, expected %llu",
                        (unsigned long long)ld64(src + UZIP_H_REM_OFFSET), (unsigned long long)h->rem_offset);
  if (ld64(src + UZIP_H_DIR_OFFSET) != h->dir_offset)
    return uzipSetError(UZIP_ERR_CORRUPT, "directory offset %llu, expected %llu",
                        (unsigned long long)ld64(src + UZIP_H_DIR_OFFSET), (unsigned long long)h->dir_offset);
  if (ld64(src + UZIP_H_PAYLOAD) != h->payload_offset)
    return uzipSetError(UZIP_ERR_CORRUPT, "payload offset %llu, expected %llu",
                        (unsigned long long)ld64(src + UZIP_H_PAYLOAD), (unsigned long long)h->payload_offset);
  if (h->total < h->payload_offset || (h->total & 15u))
    return uzipSetError(UZIP_ERR_CORRUPT, "total size %llu is not a multiple of 16 at or after the payload (%llu)",
                        (unsigned long long)h->total, (unsigned long long)h->payload_offset);
  if (h->total > src_bytes)
    return uzipSetError(UZIP_ERR_TRUNCATED, "stream says %llu bytes, only %llu available",
                        (unsigned long long)h->total, (unsigned long long)src_bytes);
  return UZIP_OK;
}

void write_header(uint8_t* dst, const Header& h, uint32_t checksum) {
  memset(dst, 0, UZIP_HEADER_BYTES);
  st32(dst + UZIP_H_MAGIC, UZIP_MAGIC);
  dst[UZIP_H_VERSION] = (uint8_t)UZIP_VERSION;
  dst[UZIP_H_DTYPE] = (uint8_t)h.dtype;
  dst[UZIP_H_FLAGS] = (uint8_t)h.flags;
  dst[UZIP_H_LOG2BLOCK] = (uint8_t)h.log2_block;
  st64(dst + UZIP_H_COUNT, h.count);
  st64(dst + UZIP_H_TOTAL, h.total);
  st32(dst + UZIP_H_NBLOCKS, (uint32_t)h.nblocks);
  st32(dst + UZIP_H_CHECKSUM, checksum);
  st64(dst + UZIP_H_REM_OFFSET, h.rem_offset);
  st64(dst + UZIP_H_DIR_OFFSET, h.dir_offset);
  st64(dst + UZIP_H_PAYLOAD, h.payload_offset);
  uint32_t words[14];
  for (int i = 0; i < 14; i++) words[i] = ld32(dst + 4 * i);
  st32(dst + UZIP_H_CHECK, uzip_header_check(words));
}

// Cloned for AVX2 (chosen at load time when the CPU has it): fmix32 needs 32-bit vector multiplies,
// which baseline x86-64 (SSE2) lacks.
UZIP_CHECKSUM_CLONES uint32_t data_checksum(const uint8_t* p, uint64_t n) {
  uint64_t nw = n / 4;
  uint32_t sum = 0;
  // The word index only enters as (uint32_t)j * golden, so a u32 running product is exact; plain
  // loop that the compiler vectorizes.
  for (uint64_t j = 0; j < nw; j++) sum += uzip_checksum_term(ld32(p + 4 * j), j);
  if (n & 3u) {
    uint8_t last[4] = {0, 0, 0, 0};
    memcpy(last, p + 4 * nw, n & 3u);
    sum += uzip_checksum_term(ld32(last), nw);
  }
  return uzip_checksum_final(sum, n);
}

namespace {
struct ScratchOwner {
  Scratch s{};
  void* block = nullptr;
  ~ScratchOwner() { free(block); }
};
thread_local ScratchOwner t_scratch;
}  // namespace

Scratch* scratch() {
  ScratchOwner& o = t_scratch;
  if (!o.block) {
    const uint64_t sym = (uint64_t)1 << UZIP_LOG2_BLOCK_MAX, rem = 3 * sym;
    const uint64_t ans = uzip_pad16(ans_section_bound(rem)) + 64;
    o.block = malloc(sym + rem + ans);
    if (!o.block) return nullptr;
    uint8_t* b = (uint8_t*)o.block;
    o.s.sym = b;
    o.s.rem = b + sym;
    o.s.ans = b + sym + rem;
    o.s.ans_capacity = ans;
  }
  return &o.s;
}

void histogram(const uint8_t* p, uint64_t n, uint32_t* counts) {
  uint32_t h[4][256];
  memset(h, 0, sizeof h);
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v = ld64(p + i);
    h[0][v & 0xFF]++;
    h[1][(v >> 8) & 0xFF]++;
    h[2][(v >> 16) & 0xFF]++;
    h[3][(v >> 24) & 0xFF]++;
    h[0][(v >> 32) & 0xFF]++;
    h[1][(v >> 40) & 0xFF]++;
    h[2][(v >> 48) & 0xFF]++;
    h[3][v >> 56]++;
  }
  for (; i < n; i++) h[0][p[i]]++;
  for (int s = 0; s < 256; s++) counts[s] = h[0][s] + h[1][s] + h[2][s] + h[3][s];
}

}  // namespace uzip_cpu
