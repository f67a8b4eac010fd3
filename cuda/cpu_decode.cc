// CPU codec: the validating stream walker (shared by decode and inspect) and uzipDecompressCpu.
// Every size read from the stream is checked against the bytes that exist before it is used, so a
// forged stream can make this code neither read past src_bytes, write past dst_capacity, nor loop or
// allocate according to a forged count.
#include <mutex>

#include "cpu_internal.h"
#include "cpu_threads.h"

namespace uzip_cpu {
namespace {

// A plane section located and validated inside a block payload.
struct Section {
  uint32_t mode;
  const uint8_t* data;  // RAW: the plane; CONST: the value; ANS/EXTERNAL/NONE: unused
  uint64_t padded;      // bytes the section occupies in the payload
};

static const char* mode_name(uint32_t m) {
  switch (m) {
    case UZIP_MODE_RAW: return "RAW";
    case UZIP_MODE_CONST: return "CONST";
    case UZIP_MODE_ANS: return "ANS";
    case UZIP_MODE_EXTERNAL: return "EXTERNAL";
    case UZIP_MODE_NONE: return "NONE";
    case UZIP_MODE_LANES: return "LANES";
    case UZIP_MODE_PAIRS: return "PAIRS";
    default: return "unknown";
  }
}

// Locates (and for ANS decodes into ans_out, when non-null) the section of a plane of n bytes whose
// values are `unit` bytes, at p with avail bytes left in the block payload (avail is a multiple of 16).
static int read_section(uint32_t mode, const uint8_t* p, uint64_t avail, uint64_t n, uint32_t unit,
                        uint8_t* ans_out, const char* what, uint64_t block, Section* sec,
                        const Header* lanes = nullptr, const AnsLean& lean = AnsLean{}, uint32_t* seeds = nullptr) {
  unsigned long long bl = (unsigned long long)block;
  sec->mode = mode;
  sec->data = p;
  uint64_t used = 0;
  switch (mode) {
    case UZIP_MODE_RAW: used = n; break;
    case UZIP_MODE_CONST: used = unit; break;
    case UZIP_MODE_ANS:
      if (int st = ans_decode_section(p, avail, n, ans_out, &used, what, block, lean, seeds)) return st;
      break;
    case UZIP_MODE_LANES:  // walk_stream passes the header only for a LANES stream's symbol plane
      if (int st = lanes_decode_section(p, avail, (uint32_t)n, lanes->width, lanes->log2_block, ans_out, &used,
                                        block))
        return st;
      break;
    case UZIP_MODE_PAIRS:  // walk_stream allows it only for a PAIRS stream's symbol plane
      if (int st = pairs_decode_section(p, avail, (uint32_t)n, ans_out, &used, block)) return st;
      break;
    default: sec->padded = 0; return UZIP_OK;  // EXTERNAL / NONE: nothing in the payload
  }
  sec->padded = uzip_pad16(used);
  if (sec->padded > avail)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: %s section of %llu bytes runs past the block "
                        "payload (%llu bytes left)", bl, what, mode_name(mode), (unsigned long long)used,
                        (unsigned long long)avail);
  if (!all_zero(p + used, sec->padded - used))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: section padding not zero", bl, what);
  return UZIP_OK;
}

// Rebuilds m elements from the two planes.
static void join_planes(uint8_t* out, uint32_t m, uint32_t width, const uint8_t* sym, const uint8_t* rem) {
  if (width == 2) {
    for (uint32_t i = 0; i < m; i++) st16(out + 2 * (uint64_t)i, (uint16_t)uzip_join(sym[i], rem[i], 2));
  } else {
    for (uint32_t i = 0; i < m; i++) {
      const uint8_t* r = rem + 3 * (uint64_t)i;
      uint32_t v = (uint32_t)r[0] | ((uint32_t)r[1] << 8) | ((uint32_t)r[2] << 16);
      st32(out + 4 * (uint64_t)i, uzip_join(sym[i], v, 4));
    }
  }
}

// A seeded stream's block (FORMAT.md "Lean sections"): its m remainders into rem, each segment's unseeded
// ones from the split plane, its seeded ones from the seed section (seedSection, RAW or CONST symbol
// plane) or from its lanes' seeds (ANS).
static void gather_seeded(const Header& h, uint64_t b, uint32_t m, const uint8_t* src, const uint8_t* seedSection,
                          const uint32_t* seeds, uint8_t* rem) {
  const uint64_t rw = h.rem_width;
  const uint32_t E = uzip_seed_steps(h.dtype), segBytes = uzip_seg_seed_bytes(h.dtype);
  const uint8_t* plane = src + UZIP_HEADER_BYTES + uzip_split_plane_block_offset(b, h.dtype, h.flags, h.log2_block);
  for (uint32_t sg = 0, start = 0; start < m; sg++, start += UZIP_ANS_SEG_SYMS) {
    const uint32_t len = m - start < UZIP_ANS_SEG_SYMS ? m - start : UZIP_ANS_SEG_SYMS;
    const bool seeded = uzip_seg_seeded(len, h.dtype);
    const uint32_t kept = seeded ? len - 32u * E : len;
    memcpy(rem + start * rw, plane, kept * rw);
    plane += kept * rw;
    if (!seeded) continue;
    uint8_t* r = rem + (uint64_t)(start + kept) * rw;
    if (seedSection) {
      memcpy(r, seedSection, segBytes);
      seedSection += segBytes;
      continue;
    }
    for (uint32_t l = 0; l < 32u; l++)
      for (uint32_t e = 0; e < E; e++)
        for (uint32_t i = 0; i < rw; i++) r[(32u * e + l) * rw + i] = (uint8_t)(seeds[32u * sg + l] >> (8u * (rw * e + i)));
  }
}

// What every block of one walk shares, and what a walk adds up over its blocks.
struct Walk {
  const uint8_t* src;
  uint8_t* dst;  // null: validate only
  const Header* h;
  const uint8_t* dir;
  const uint8_t* base;  // payload start
  uint64_t payload;     // payload bytes
};
struct WalkSums {
  uint64_t sym_bytes = 0, rem_bytes = 0;
  uint64_t sym_modes[3] = {0, 0, 0}, rem_modes[3] = {0, 0, 0};
  void add(const WalkSums& o) {
    sym_bytes += o.sym_bytes;
    rem_bytes += o.rem_bytes;
    for (int i = 0; i < 3; i++) sym_modes[i] += o.sym_modes[i], rem_modes[i] += o.rem_modes[i];
  }
};

// Validates block b (its directory entry against the previous entry's end, its sections) and, with a
// destination, decodes it. s: scratch, needed only with a destination.
static int walk_block(const Walk& w, uint64_t b, Scratch* s, WalkSums* sums) {
  const Header& h = *w.h;
  const bool split = (h.flags & UZIP_FLAG_SPLIT) != 0;
  const uint64_t rw = h.rem_width;
  unsigned long long bl = (unsigned long long)b;
  const uint64_t prev = b ? uzip_dir_end(ld64(w.dir + 8 * (b - 1))) : 0;
  uint64_t e = ld64(w.dir + 8 * b);
  uint64_t end = uzip_dir_end(e);
  uint32_t sm = uzip_dir_sym_mode(e), rm = uzip_dir_rem_mode(e);
  if (!uzip_dir_reserved_ok(e))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: directory entry reserved bits not zero", bl);
  if (end < prev || (end & 15u) || end > w.payload)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: directory end %llu is not a 16-aligned offset in "
                        "[%llu, %llu]", bl, (unsigned long long)end, (unsigned long long)prev,
                        (unsigned long long)w.payload);
  const bool lanes = (h.flags & UZIP_FLAG_LANES) != 0, pairs = (h.flags & UZIP_FLAG_PAIRS) != 0;
  const uint32_t coded = lanes ? UZIP_MODE_LANES : pairs ? UZIP_MODE_PAIRS : UZIP_MODE_ANS;
  if (!(sm == UZIP_MODE_RAW || sm == UZIP_MODE_CONST || sm == coded))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: symbol-plane mode %u (%s) is not allowed", bl, sm,
                        mode_name(sm));
  uint32_t want_rem = h.width == 1 ? UZIP_MODE_NONE : split ? UZIP_MODE_EXTERNAL : 99u;
  if (want_rem != 99u ? rm != want_rem : rm > UZIP_MODE_ANS)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: remainder-plane mode %u (%s) is not allowed for dtype "
                        "%u in the %s layout", bl, rm, mode_name(rm), h.dtype, split ? "split" : "inline");
  const uint32_t m = uzip_block_len(h.count, h.log2_block, b);
  const uint64_t first = b << h.log2_block;
  uint8_t* dst = w.dst;
  uint8_t* out = dst ? dst + first * h.width : nullptr;
  uint8_t* sym_out = !dst ? nullptr : h.width == 1 ? out : s->sym;
  Section ss, rs;
  AnsLean lean;
  lean.tables = (h.flags & UZIP_FLAG_LEAN) != 0;
  const bool seededStream = uzip_seeded_stream(h.dtype, h.flags);
  lean.seedDtype = seededStream ? h.dtype : 0u;
  uint32_t seeds[UZIP_CPU_MAX_SEEDS];
  if (int st = read_section(sm, w.base + prev, end - prev, m, 1, sym_out, "symbol", b, &ss, lanes ? &h : nullptr,
                            lean, seeds))
    return st;
  uint64_t pos = prev + ss.padded;
  // A seeded stream's RAW or CONST symbol section is followed by the block's seed bytes (a multiple of 16).
  const uint64_t seedBytes = uzip_block_seed_bytes(m, h.dtype, h.flags);
  const uint8_t* seedSection = nullptr;
  if (seedBytes && sm != UZIP_MODE_ANS) {
    if (seedBytes > end - pos)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: seed section of %llu bytes runs past the block payload", bl,
                          (unsigned long long)seedBytes);
    seedSection = w.base + pos;
    pos += seedBytes;
    sums->rem_bytes += seedBytes;
  }
  uint64_t rn = (uint64_t)m * rw;
  AnsLean remLean;
  remLean.tables = lean.tables;
  if (int st = read_section(rm, w.base + pos, end - pos, rn, (uint32_t)rw, dst ? s->rem : nullptr, "remainder",
                            b, &rs, nullptr, remLean))
    return st;
  pos += rs.padded;
  if (pos != end)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: sections take %llu bytes, the directory says %llu", bl,
                        (unsigned long long)(pos - prev), (unsigned long long)(end - prev));
  sums->sym_bytes += ss.padded;
  sums->rem_bytes += rs.padded;
  sums->sym_modes[sm == coded ? UZIP_MODE_ANS : sm]++;  // lane streams and pairs count as entropy-coded
  if (rm <= UZIP_MODE_ANS) sums->rem_modes[rm]++;
  if (!dst) return UZIP_OK;
  const uint8_t* sym = sym_out;
  if (sm == UZIP_MODE_RAW) {
    if (h.width == 1) memcpy(out, ss.data, m);
    else sym = ss.data;
  } else if (sm == UZIP_MODE_CONST) {
    memset(sym_out, ss.data[0], m);
  }
  if (h.width == 1) return UZIP_OK;
  const uint8_t* rem = s->rem;
  if (rm == UZIP_MODE_RAW) {
    rem = rs.data;
  } else if (rm == UZIP_MODE_CONST) {
    if (rw == 1) {
      memset(s->rem, rs.data[0], rn);
    } else {
      for (uint64_t i = 0; i < rn; i += 3) s->rem[i] = rs.data[0], s->rem[i + 1] = rs.data[1], s->rem[i + 2] = rs.data[2];
    }
  } else if (rm == UZIP_MODE_EXTERNAL && seededStream) {
    gather_seeded(h, b, m, w.src, seedSection, seeds, s->rem);
  } else if (rm == UZIP_MODE_EXTERNAL) {
    rem = w.src + UZIP_HEADER_BYTES + first * rw;
  }
  join_planes(out, m, h.width, sym, rem);
  return UZIP_OK;
}

}  // namespace

int walk_stream(const uint8_t* src, uint64_t src_bytes, uint8_t* dst, uint64_t dst_capacity, uzip_info* info,
                int32_t threads) {
  Header h;
  if (int st = read_header(src, src_bytes, &h)) return st;
  if (dst && h.raw_bytes > dst_capacity)
    return uzipSetError(UZIP_ERR_BUFFER_TOO_SMALL, "stream decodes to %llu bytes, destination holds %llu",
                        (unsigned long long)h.raw_bytes, (unsigned long long)dst_capacity);
  const bool split = (h.flags & UZIP_FLAG_SPLIT) != 0;
  if (split) {
    uint64_t rem_bytes = uzip_split_plane_bytes(h.count, h.dtype, h.flags, h.log2_block);
    if (!all_zero(src + UZIP_HEADER_BYTES + rem_bytes, h.dir_offset - UZIP_HEADER_BYTES - rem_bytes))
      return uzipSetError(UZIP_ERR_CORRUPT, "split remainder plane padding not zero");
  }
  const uint8_t* dir = src + h.dir_offset;
  if (!all_zero(dir + 8 * h.nblocks, h.payload_offset - h.dir_offset - 8 * h.nblocks))
    return uzipSetError(UZIP_ERR_CORRUPT, "directory padding not zero");

  const Walk w{src, dst, &h, dir, src + h.payload_offset, h.total - h.payload_offset};
  WalkSums sums;
  sums.rem_bytes = split ? h.dir_offset - UZIP_HEADER_BYTES : 0;
  // Several threads only to decode (a walk without a destination is inspect's); each adds up its blocks.
  const uint32_t nthreads = dst ? cpu_threads(threads, h.nblocks) : 1u;
  if (nthreads > 1) {
    std::mutex mu;
    if (int st = for_each_block(h.nblocks, nthreads, [&](uint64_t b) -> int {
          Scratch* s = scratch();
          if (!s) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate the codec scratch");
          WalkSums part;
          if (int e = walk_block(w, b, s, &part)) return e;
          std::lock_guard<std::mutex> lock(mu);
          sums.add(part);
          return UZIP_OK;
        }))
      return st;
  } else {
    Scratch* s = nullptr;
    if (dst && h.nblocks) {
      s = scratch();
      if (!s) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate the codec scratch");
    }
    for (uint64_t b = 0; b < h.nblocks; b++)
      if (int st = walk_block(w, b, s, &sums)) return st;
  }
  const uint64_t last = h.nblocks ? uzip_dir_end(ld64(dir + 8 * (h.nblocks - 1))) : 0;
  if (last != w.payload)
    return uzipSetError(UZIP_ERR_CORRUPT, "the blocks end at payload byte %llu, the header says the stream "
                        "ends at %llu", (unsigned long long)last, (unsigned long long)w.payload);
  if (dst && (h.flags & UZIP_FLAG_CHECKSUM)) {
    uint32_t c = data_checksum(dst, h.raw_bytes);
    if (c != h.stored_checksum)
      return uzipSetError(UZIP_ERR_CHECKSUM, "checksum mismatch: stored 0x%08x, decoded data gives 0x%08x",
                          h.stored_checksum, c);
  }
  if (info) {
    info->version = UZIP_VERSION;
    info->dtype = h.dtype;
    info->flags = h.flags;
    info->log2Block = h.log2_block;
    info->count = h.count;
    info->rawBytes = h.raw_bytes;
    info->totalBytes = h.total;
    info->nblocks = h.nblocks;
    info->checksum = h.stored_checksum;
    info->symbolBytes = sums.sym_bytes;
    info->remainderBytes = sums.rem_bytes;
    info->symRaw = sums.sym_modes[UZIP_MODE_RAW];
    info->symConst = sums.sym_modes[UZIP_MODE_CONST];
    info->symAns = sums.sym_modes[UZIP_MODE_ANS];
    info->remRaw = sums.rem_modes[UZIP_MODE_RAW];
    info->remConst = sums.rem_modes[UZIP_MODE_CONST];
    info->remAns = sums.rem_modes[UZIP_MODE_ANS];
  }
  return UZIP_OK;
}

}  // namespace uzip_cpu

namespace {
int decompress_cpu(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity, uint64_t* outBytes,
                   int32_t threads) {
  uzipClearError();
  if (!outBytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "outBytes is null");
  *outBytes = 0;
  if (!src) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is null");
  if (threads < 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "threads %d is negative", threads);
  // dst may be null only when nothing is to be written; a non-null placeholder keeps walk_stream in
  // decode mode (it checks the size against dstCapacity before touching dst).
  static uint8_t empty_dst[1];
  uint8_t* d = dst ? (uint8_t*)dst : (dstCapacity == 0 ? empty_dst : nullptr);
  if (!d) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst is null");
  int st = uzip_cpu::walk_stream((const uint8_t*)src, srcBytes, d, dst ? dstCapacity : 0, nullptr, threads);
  if (st) return st;
  const uint8_t* s = (const uint8_t*)src;
  *outBytes = uzip_cpu::ld64(s + UZIP_H_COUNT) * uzip_dtype_width(s[UZIP_H_DTYPE]);
  return UZIP_OK;
}
}  // namespace

extern "C" UZIP_API int uzipDecompressCpu(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                                          uint64_t* outBytes) {
  return decompress_cpu(src, srcBytes, dst, dstCapacity, outBytes, 1);
}

extern "C" UZIP_API int uzipDecompressCpuMsg(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                                             uint64_t* outBytes, int32_t threads, char* msg, uint64_t msgCapacity) {
  return uzipCopyError(decompress_cpu(src, srcBytes, dst, dstCapacity, outBytes, threads), msg, msgCapacity);
}

extern "C" UZIP_API int uzipDecompressCpuMt(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                                            uint64_t* outBytes, int32_t threads) {
  return decompress_cpu(src, srcBytes, dst, dstCapacity, outBytes, threads);
}
