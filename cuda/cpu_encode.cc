// CPU codec: uzipCompressCpu, the reference encoder. Per block: split the elements into the symbol and
// remainder planes, pick each plane's mode exactly as FORMAT.md "Choosing a mode" says (the GPU encoder
// must pick the same), write the sections, then the directory and the header. uzipCompressCpuMt codes the
// blocks on several threads into the same bytes (encode_blocks_mt).
#include <atomic>
#include <memory>
#include <mutex>
#include <new>

#include "cpu_internal.h"
#include "cpu_threads.h"

namespace uzip_cpu {
namespace {

static const uint16_t kCost[UZIP_ANS_M] = UZIP_COST_INIT;

// Splits m elements of the given width at src into sym[m] and rem[m * (width - 1)].
static void split_planes(const uint8_t* src, uint32_t m, uint32_t width, uint8_t* sym, uint8_t* rem) {
  if (width == 2) {
    for (uint32_t i = 0; i < m; i++) {
      uint32_t v = ld16(src + 2 * (uint64_t)i);
      sym[i] = (uint8_t)uzip_symbol_of(v, 2);
      rem[i] = (uint8_t)uzip_remainder_of(v, 2);
    }
  } else {  // width 4: 3 remainder bytes per element, little-endian
    uint32_t i = 0;
    for (; i + 1 < m; i++) {
      uint32_t v = ld32(src + 4 * (uint64_t)i);
      sym[i] = (uint8_t)uzip_symbol_of(v, 4);
      st32(rem + 3 * (uint64_t)i, uzip_remainder_of(v, 4));  // the 4th byte is overwritten next
    }
    uint32_t v = ld32(src + 4 * (uint64_t)i);
    uint32_t r = uzip_remainder_of(v, 4);
    sym[i] = (uint8_t)uzip_symbol_of(v, 4);
    rem[3 * (uint64_t)i] = (uint8_t)r;
    rem[3 * (uint64_t)i + 1] = (uint8_t)(r >> 8);
    rem[3 * (uint64_t)i + 2] = (uint8_t)(r >> 16);
  }
}

// Is every `unit`-byte value of the plane equal to the first? plane_repeats scans for a byte that differs
// from the one `unit` bytes before it, and stops there (for a plane not counted yet: see encode_plane);
// plane_is_const asks the plane's histogram first (more distinct bytes than `unit` cannot repeat one value).
static bool plane_repeats(const uint8_t* p, uint64_t n, uint32_t unit) {
  for (uint64_t i = unit; i < n; i++)
    if (p[i] != p[i - unit]) return false;
  return true;
}
static bool plane_is_const(const uint8_t* p, uint64_t n, uint32_t unit, const uint32_t* counts) {
  if (unit == 1) return counts[p[0]] == n;
  uint32_t distinct = 0;
  for (int s = 0; s < 256; s++) distinct += counts[s] != 0;
  return distinct <= unit && plane_repeats(p, n, unit);
}

struct Out {
  uint8_t* dst;
  uint64_t cap, pos;
  uint64_t block;
};

static int need(Out& o, uint64_t bytes) {
  if (bytes > o.cap - o.pos)
    return uzipSetError(UZIP_ERR_BUFFER_TOO_SMALL,
                        "destination of %llu bytes is too small (block %llu needs more; "
                        "uzipMaxCompressedSize gives a capacity that always suffices)",
                        (unsigned long long)o.cap, (unsigned long long)o.block);
  return UZIP_OK;
}

// Writes `bytes` bytes then zero padding up to 16.
static void put_padded(Out& o, const uint8_t* p, uint64_t bytes) {
  memcpy(o.dst + o.pos, p, bytes);
  uint64_t padded = uzip_pad16(bytes);
  memset(o.dst + o.pos + bytes, 0, padded - bytes);
  o.pos += padded;
}

// Writes the plane verbatim (RAW).
static int put_raw(Out& o, const uint8_t* plane, uint64_t n, uint32_t* mode) {
  if (int st = need(o, uzip_pad16(n))) return st;
  put_padded(o, plane, n);
  *mode = UZIP_MODE_RAW;
  return UZIP_OK;
}

// Writes the plane's one value of `unit` bytes (CONST).
static int put_const(Out& o, const uint8_t* plane, uint32_t unit, uint32_t* mode) {
  if (int st = need(o, UZIP_ALIGN)) return st;
  put_padded(o, plane, unit);
  *mode = UZIP_MODE_CONST;
  return UZIP_OK;
}

// Chooses the mode of one plane (n bytes, values of `unit` bytes) and writes its section. remainder: a
// remainder plane (whose estimate must be under uzip_ans_est_limit); sampleBytes (remainder planes): the
// plane's first bytes that decide RAW before the whole plane is weighed (uzip_rem_sample_says_raw); 0 for
// the symbol plane. The CONST test covers the whole plane either way. lean, seeds: a LEAN stream's ANS
// section (ans_encode_plane); the modes are chosen as in any stream.
static int encode_plane(Out& o, const uint8_t* plane, uint64_t n, uint32_t unit, bool remainder, uint64_t sampleBytes,
                        Scratch* s, uint32_t* mode, const AnsLean& lean = AnsLean{}, const uint32_t* seeds = nullptr) {
  uint32_t counts[256], freqs[256];
  if (sampleBytes > 0 && sampleBytes < n) {
    // A sampled remainder plane: mostly mantissa bytes that the sample sends RAW, so the whole plane is
    // counted only when the sample does not (the same modes and bytes as counting it first, without a
    // histogram of every remainder byte: bf16 default-layout compression 0.92 -> 1.1 GB/s on one core).
    if (plane_repeats(plane, n, unit)) return put_const(o, plane, unit, mode);
    uint32_t sc[256], sf[256], sk = 0;
    histogram(plane, sampleBytes, sc);
    uzip_normalize_freqs(sc, (uint32_t)sampleBytes, sf);
    for (int i = 0; i < 256; i++) sk += sf[i] != 0;
    if (uzip_rem_sample_says_raw(sk, uzip_cost_bits256(sc, sf, kCost), sampleBytes, n))
      return put_raw(o, plane, n, mode);
    histogram(plane, n, counts);
  } else {
    histogram(plane, n, counts);
    if (plane_is_const(plane, n, unit, counts)) return put_const(o, plane, unit, mode);
  }
  uzip_normalize_freqs(counts, (uint32_t)n, freqs);
  uint32_t k = 0;
  for (int i = 0; i < 256; i++) k += freqs[i] != 0;
  uint64_t est = uzip_ans_table_bytes(k) + (uint64_t)uzip_ans_nseg(n) * UZIP_ANS_SEG_HEADER_BYTES +
                 (uzip_cost_bits256(counts, freqs, kCost) + 2047u) / 2048u;
  if (est < uzip_ans_est_limit(n, remainder)) {
    uint64_t coded = ans_encode_plane(plane, n, freqs, s->ans, lean, seeds);
    if (coded < n) {
      if (int st = need(o, uzip_pad16(coded))) return st;
      put_padded(o, s->ans, coded);
      *mode = UZIP_MODE_ANS;
      return UZIP_OK;
    }
  }
  return put_raw(o, plane, n, mode);
}

// The symbol plane of a LANES stream's block (FORMAT.md "Lane streams").
static int encode_lanes(Out& o, const uint8_t* sym, uint32_t m, uint32_t width, uint32_t log2_block, Scratch* s,
                        uint32_t* mode) {
  const uint64_t used = lanes_encode_plane(sym, m, width, log2_block, s->ans, mode);
  if (*mode == UZIP_MODE_RAW) return put_raw(o, sym, m, mode);
  if (int st = need(o, uzip_pad16(used))) return st;
  put_padded(o, s->ans, used);
  return UZIP_OK;
}

// The symbol plane of a PAIRS stream's block (FORMAT.md "Pair coding"): CONST, else PAIRS when smaller than
// the plane, else RAW.
static int encode_pairs(Out& o, const uint8_t* sym, uint32_t m, Scratch* s, uint32_t* mode) {
  uint32_t counts[256];
  histogram(sym, m, counts);
  if (plane_is_const(sym, m, 1, counts)) return put_const(o, sym, 1, mode);
  const uint64_t used = pairs_encode_plane(sym, m, counts, s->ans, mode);
  if (*mode == UZIP_MODE_RAW) return put_raw(o, sym, m, mode);
  if (int st = need(o, uzip_pad16(used))) return st;
  put_padded(o, s->ans, used);
  return UZIP_OK;
}

// What every block of one call shares.
struct EncCall {
  const uint8_t* src;
  uint8_t* dst;
  uint64_t count;
  uint32_t dtype, flags, log2_block, width, rem_width;
};

// A block of a seeded stream (FORMAT.md "Lean sections": LEAN, split layout, dtype with a remainder). The
// remainders of each seeded segment's last uzip_seed_steps steps become its lanes' seeds (lane l: its own
// elements' remainders, little-endian in element order) instead of split-plane bytes; the rest of the
// block's remainders go to its part of the plane, segment after segment. A RAW or CONST symbol section is
// followed by the seed section: those remainder bytes as the plane would hold them.
static int encode_seeded_block(const EncCall& c, uint64_t b, Scratch* s, Out& o, uint32_t* symMode,
                               uint32_t* remMode) {
  const uint64_t rw = c.rem_width;
  const uint32_t m = uzip_block_len(c.count, c.log2_block, b);
  split_planes(c.src + (b << c.log2_block) * c.width, m, c.width, s->sym, s->rem);
  const uint32_t E = uzip_seed_steps(c.dtype), segBytes = uzip_seg_seed_bytes(c.dtype);
  uint8_t* plane = c.dst + UZIP_HEADER_BYTES + uzip_split_plane_block_offset(b, c.dtype, c.flags, c.log2_block);
  uint32_t seeds[UZIP_CPU_MAX_SEEDS];
  uint8_t seedBytes[UZIP_CPU_MAX_SEEDS / 32u * 96u];
  uint32_t nseedBytes = 0;
  for (uint32_t sg = 0, start = 0; start < m; sg++, start += UZIP_ANS_SEG_SYMS) {
    const uint32_t len = m - start < UZIP_ANS_SEG_SYMS ? m - start : UZIP_ANS_SEG_SYMS;
    const bool seeded = uzip_seg_seeded(len, c.dtype);
    const uint32_t kept = seeded ? len - 32u * E : len;
    memcpy(plane, s->rem + start * rw, kept * rw);
    plane += kept * rw;
    if (!seeded) continue;
    const uint8_t* r = s->rem + (uint64_t)(start + kept) * rw;  // the seeded elements' remainders
    memcpy(seedBytes + nseedBytes, r, segBytes);
    nseedBytes += segBytes;
    for (uint32_t l = 0; l < 32u; l++) {
      uint32_t seed = 0;
      for (uint32_t e = 0; e < E; e++)
        for (uint32_t i = 0; i < rw; i++) seed |= (uint32_t)r[(32u * e + l) * rw + i] << (8u * (rw * e + i));
      seeds[32u * sg + l] = seed;
    }
  }
  AnsLean lean;
  lean.tables = true;
  lean.seedDtype = c.dtype;
  uint32_t sym_mode = 0;
  if (int st = encode_plane(o, s->sym, m, 1, false, 0, s, &sym_mode, lean, seeds)) return st;
  if (sym_mode != UZIP_MODE_ANS && nseedBytes) {  // a multiple of 16: no padding
    if (int st = need(o, nseedBytes)) return st;
    memcpy(o.dst + o.pos, seedBytes, nseedBytes);
    o.pos += nseedBytes;
  }
  *symMode = sym_mode;
  *remMode = UZIP_MODE_EXTERNAL;
  return UZIP_OK;
}

// Codes block b into o (from o.pos): its planes split, each plane's mode chosen, its sections written;
// the remainder plane of the split layout goes straight to its place in dst.
static int encode_block(const EncCall& c, uint64_t b, Scratch* s, Out& o, uint32_t* symMode, uint32_t* remMode) {
  const bool split = (c.flags & UZIP_FLAG_SPLIT) != 0;
  const uint64_t rw = c.rem_width, block = (uint64_t)1 << c.log2_block;
  const uint32_t m = uzip_block_len(c.count, c.log2_block, b);
  const uint8_t* in = c.src + (b << c.log2_block) * c.width;
  uint32_t sym_mode = 0, rem_mode = UZIP_MODE_NONE;
  AnsLean lean;
  lean.tables = (c.flags & UZIP_FLAG_LEAN) != 0;
  if (c.flags & UZIP_FLAG_LANES) {  // split layout: remainders to the split plane, symbols in lanes
    const uint8_t* sym = in;
    if (c.width > 1) {
      split_planes(in, m, c.width, s->sym, c.dst + UZIP_HEADER_BYTES + b * block * rw);
      sym = s->sym;
      rem_mode = UZIP_MODE_EXTERNAL;
    }
    if (int st = encode_lanes(o, sym, m, c.width, c.log2_block, s, &sym_mode)) return st;
  } else if (c.width == 1) {
    if (int st = encode_plane(o, in, m, 1, false, 0, s, &sym_mode, lean)) return st;
  } else if (uzip_seeded_stream(c.dtype, c.flags)) {
    return encode_seeded_block(c, b, s, o, symMode, remMode);
  } else {
    uint8_t* rem = split ? c.dst + UZIP_HEADER_BYTES + b * block * rw : s->rem;
    split_planes(in, m, c.width, s->sym, rem);
    if (int st = (c.flags & UZIP_FLAG_PAIRS) ? encode_pairs(o, s->sym, m, s, &sym_mode)
                                             : encode_plane(o, s->sym, m, 1, false, 0, s, &sym_mode, lean))
      return st;
    // Remainders are weighed on a sample of the block's first elements first (FORMAT.md step 2).
    const uint64_t sample =
        uzip_rem_sampled((uint32_t)rw) ? (uint64_t)(m < UZIP_REM_SAMPLE_ELEMS ? m : UZIP_REM_SAMPLE_ELEMS) * rw : 0;
    if (split) {
      rem_mode = UZIP_MODE_EXTERNAL;
    } else if (int st = encode_plane(o, rem, (uint64_t)m * rw, (uint32_t)rw, true, sample, s, &rem_mode, lean)) {
      return st;
    }
  }
  *symMode = sym_mode;
  *remMode = rem_mode;
  return UZIP_OK;
}

static int payload_too_large() {
  return uzipSetError(UZIP_ERR_INVALID_ARG, "payload exceeds the 2^40 bytes a stream can address");
}

constexpr int kSingleThread = -1;  // encode_blocks_mt could not start: code on the calling thread instead

// Blocks on several threads (uzipCompressCpuMt). Block b is coded into its own slot of the payload area, at
// b times the most a block can take (the blocks' share of uzipMaxCompressedSize, which dst holds), and a
// committer moves the coded blocks down to their places in block order as they finish, writing their
// directory entries: a block's place ends below the next block's slot, so the move never touches a slot
// that a thread is still writing. Whichever thread finishes a block commits what is ready; the caller
// commits the rest after the join. Returns kSingleThread, having written nothing, when it cannot allocate
// its per-block state.
static int encode_blocks_mt(const EncCall& c, uint64_t nblocks, uint8_t* payload, uint64_t payloadCap, uint8_t* dir,
                            uint32_t threads, uint64_t* payloadBytes) {
  const uint64_t slot = ((uint64_t)c.width << c.log2_block) + 2u * (UZIP_ALIGN - 1u);
  struct Done {
    std::atomic<uint32_t> ready{0};
    uint64_t bytes = 0;
    uint32_t symMode = 0, remMode = 0;
  };
  std::unique_ptr<Done[]> done(new (std::nothrow) Done[nblocks]);
  if (!done) return kSingleThread;
  std::mutex commitMu;
  uint64_t next = 0, pos = 0;  // under commitMu: the next block to commit, where it goes
  bool tooLarge = false;
  auto commit = [&]() {  // with commitMu held
    while (next < nblocks && done[next].ready.load(std::memory_order_acquire)) {
      Done& d = done[next];
      if (pos != next * slot) memmove(payload + pos, payload + next * slot, d.bytes);
      pos += d.bytes;
      if (pos > UZIP_DIR_END_MASK) tooLarge = true;
      st64(dir + 8 * next, uzip_dir_entry(pos, d.symMode, d.remMode));
      next++;
    }
  };
  const int st = for_each_block(nblocks, threads, [&](uint64_t b) -> int {
    Scratch* s = scratch();
    if (!s) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate the codec scratch");
    Out o{payload + b * slot, slot < payloadCap - b * slot ? slot : payloadCap - b * slot, 0, b};
    Done& d = done[b];
    if (int e = encode_block(c, b, s, o, &d.symMode, &d.remMode)) return e;
    d.bytes = o.pos;
    d.ready.store(1, std::memory_order_release);
    std::unique_lock<std::mutex> lock(commitMu, std::try_to_lock);
    if (lock.owns_lock()) commit();
    return UZIP_OK;
  });
  if (st) return st;
  std::lock_guard<std::mutex> lock(commitMu);
  commit();
  if (tooLarge) return payload_too_large();
  *payloadBytes = pos;
  return UZIP_OK;
}

// The codec with `threads` as cpu_threads takes it (1: the reference walk, block after block).
static int compress_cpu(const void* src_v, uint64_t count, int dtype, uint32_t flags, uint32_t log2Block,
                        void* dst_v, uint64_t dstCapacity, uint64_t* outBytes, int32_t threads) {
  uzipClearError();
  if (!outBytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "outBytes is null");
  *outBytes = 0;
  if (threads < 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "threads %d is negative", threads);
  if (int st = uzipCheckCodecArgs(dtype, &flags, &log2Block, count)) return st;
  if (!src_v && count) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is null");
  if (!dst_v) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst is null");
  Header h{};
  h.dtype = (uint32_t)dtype;
  h.flags = flags;
  h.log2_block = log2Block;
  h.width = uzip_dtype_width(h.dtype);
  h.rem_width = uzip_dtype_rem_width(h.dtype);
  h.count = count;
  h.nblocks = uzip_nblocks(count, log2Block);
  h.raw_bytes = count * h.width;
  h.rem_offset = uzip_rem_offset(flags);
  h.dir_offset = uzip_dir_offset(count, h.dtype, flags, log2Block);
  h.payload_offset = uzip_payload_offset(count, h.dtype, flags, log2Block);
  if (dstCapacity < h.payload_offset)
    return uzipSetError(UZIP_ERR_BUFFER_TOO_SMALL, "destination of %llu bytes is smaller than the %llu bytes of "
                        "header and directory", (unsigned long long)dstCapacity,
                        (unsigned long long)h.payload_offset);
  const uint8_t* src = (const uint8_t*)src_v;
  uint8_t* dst = (uint8_t*)dst_v;
  const bool split = (flags & UZIP_FLAG_SPLIT) != 0;
  if (split) {
    uint64_t rem_bytes = uzip_split_plane_bytes(count, h.dtype, flags, log2Block);
    memset(dst + UZIP_HEADER_BYTES + rem_bytes, 0, uzip_pad16(rem_bytes) - rem_bytes);
  }
  uint8_t* dir = dst + h.dir_offset;
  memset(dir + 8 * h.nblocks, 0, uzip_pad16(8 * h.nblocks) - 8 * h.nblocks);

  const EncCall c{src, dst, count, h.dtype, flags, log2Block, h.width, h.rem_width};
  // Several threads need every block's slot (encode_blocks_mt): a destination of uzipMaxCompressedSize bytes.
  const uint32_t nthreads = cpu_threads(threads, h.nblocks);
  uint64_t payloadBytes = 0;
  int mt = kSingleThread;
  if (nthreads > 1 && dstCapacity >= uzip_max_compressed_size(count, h.dtype, flags, log2Block)) {
    mt = encode_blocks_mt(c, h.nblocks, dst + h.payload_offset, dstCapacity - h.payload_offset, dir, nthreads,
                          &payloadBytes);
    if (mt != kSingleThread && mt != UZIP_OK) return mt;
  }
  if (mt == kSingleThread) {
    Scratch* s = scratch();
    if (!s) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate the codec scratch");
    Out o{dst + h.payload_offset, dstCapacity - h.payload_offset, 0, 0};
    for (uint64_t b = 0; b < h.nblocks; b++) {
      o.block = b;
      uint32_t sym_mode = 0, rem_mode = UZIP_MODE_NONE;
      if (int st = encode_block(c, b, s, o, &sym_mode, &rem_mode)) return st;
      if (o.pos > UZIP_DIR_END_MASK) return payload_too_large();
      st64(dir + 8 * b, uzip_dir_entry(o.pos, sym_mode, rem_mode));
    }
    payloadBytes = o.pos;
  }
  h.total = h.payload_offset + payloadBytes;
  uint32_t checksum = (flags & UZIP_FLAG_CHECKSUM) ? data_checksum(src, h.raw_bytes) : 0u;
  write_header(dst, h, checksum);
  *outBytes = h.total;
  return UZIP_OK;
}

}  // namespace
}  // namespace uzip_cpu

using namespace uzip_cpu;

extern "C" UZIP_API int uzipCompressCpu(const void* src, uint64_t count, int dtype, uint32_t flags,
                                        uint32_t log2Block, void* dst, uint64_t dstCapacity,
                                        uint64_t* outBytes) {
  return compress_cpu(src, count, dtype, flags, log2Block, dst, dstCapacity, outBytes, 1);
}

extern "C" UZIP_API int uzipCompressCpuMsg(const void* src, uint64_t count, int dtype, uint32_t flags,
                                           uint32_t log2Block, void* dst, uint64_t dstCapacity, uint64_t* outBytes,
                                           int32_t threads, char* msg, uint64_t msgCapacity) {
  return uzipCopyError(compress_cpu(src, count, dtype, flags, log2Block, dst, dstCapacity, outBytes, threads), msg,
                       msgCapacity);
}

extern "C" UZIP_API int uzipCompressCpuMt(const void* src, uint64_t count, int dtype, uint32_t flags,
                                          uint32_t log2Block, void* dst, uint64_t dstCapacity, uint64_t* outBytes,
                                          int32_t threads) {
  return compress_cpu(src, count, dtype, flags, log2Block, dst, dstCapacity, outBytes, threads);
}
