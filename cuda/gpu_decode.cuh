// The GPU decompression kernel: every warp validates the header (64 bytes, cheap) and then decodes
// blocks b = warp, warp + nwarps, ... independently (the directory gives each block's offset). Every
// read is bounded by the validated stream size and every write by [dst, dst + count * width), which the
// header check put inside dstCapacity, so damaged input yields a status, never a stray access. The first
// failing warp's status wins; the last warp to finish adds the checksum verdict and publishes the status.
#pragma once

#include "gpu_types.cuh"
#include "uzip.h"
#include "gpu_warp.cuh"
#include "gpu_bits.cuh"
#include "lanes_format.h"
#include "gpu_pairs_common.cuh"
#include "coll_reduce.h"  // nccl/: the element arithmetic of the collectives (fused reduce)
#include "dec_table.h"

namespace uzip_gpu {

// Per-warp shared memory: 11 KB, so that 20 warps fit on an SM (each warp's ANS chain is serial, so
// throughput comes from warps in flight). The ANS words stream through a 2 KB ring (WordRing, followed by
// a 512 B copy of its first quarter) that aliases the symbol list, which is needed only while the decode
// table is built.
#define DEC_TAB 0u             /* u32[2048] slot -> symbol | (slot - cum) << 8 | freq << 20 (dec_next) */
#define DEC_INFO 8192u         /* u32[256] present symbols in order: symbol | freq << 8 | cum << 20 */
#define DEC_RING 8192u         /* u16[1024 + 256] ring of ANS words (aliases DEC_INFO), then a copy of quarter 0 */
#define DEC_SYMS 10752u        /* u8[32 * U] one group's symbols, transposed to element order (DecVec) */
constexpr uint32_t DEC_SYMS_BYTES = 512u;
// load_ans_table's bitmap of first slots (64 words) lives in DEC_INFO after the first UZIP_DEC_TAB_BITMAP_K
// entries (cuda/dec_table.h), so tables of at most that many symbols take the slot-round fill.
constexpr uint32_t DEC_WARP_BYTES = DEC_SYMS + DEC_SYMS_BYTES;
// The compact layout (COMPACT kernels): the word ring at half size and without a copy of quarter 0 (4
// quarters of 128 words, 1 KB, still aliasing the symbol list), and 256 bytes of group symbols (groups of
// at most 8 steps): 9472 bytes a warp, so that 6 CTAs of 4 warps (24 warps, 80 registers) fit in an SM's
// 228 KB with their 1 KB reserve each, where the default layout's 11 KB allows 20. The CTA's four rings
// lie at its start, each 1024-byte aligned (the kernel checks the base), so that a step's word address is
// one OR of the ring's base with the wrapped byte offset (dec_vec_step_wrap); each warp's table and
// symbols follow them (DEC_COMPACT_AREA_BYTES a warp).
constexpr uint32_t DEC_COMPACT_QW = 128u;
constexpr uint32_t DEC_COMPACT_RING_BYTES = 8u * DEC_COMPACT_QW;
constexpr uint32_t DEC_COMPACT_SYMS = DEC_TAB + 8192u;  // in the warp's area, right after its table
constexpr uint32_t DEC_COMPACT_SYMS_BYTES = 256u;
constexpr uint32_t DEC_COMPACT_AREA_BYTES = DEC_COMPACT_SYMS + DEC_COMPACT_SYMS_BYTES;
constexpr uint32_t DEC_COMPACT_WARP_BYTES = DEC_COMPACT_RING_BYTES + DEC_COMPACT_AREA_BYTES;
static_assert(DEC_COMPACT_RING_BYTES == 1024u, "the symbol list's 1 KB aliases the compact ring, which wraps at 1 KB");
static_assert(6u * (4u * DEC_COMPACT_WARP_BYTES + 1024u) <= 228u * 1024u, "6 CTAs of 4 warps fit an H100/H200 SM");

struct Hdr {
  uint32_t status, dtype, flags, log2, width, checksum;
  uint64_t count, total, nblocks, dirOff, payloadOff;
};

__device__ __forceinline__ uint64_t ld64u(const uint8_t* p) { return *(const unsigned long long*)p; }

// The symbol codings, each decoded by its own kernel (decompress_kernel's CODING), and a stream's.
constexpr int DEC_CODING_BYTES = 0, DEC_CODING_LANES = 1, DEC_CODING_PAIRS = 2, DEC_CODING_LEAN = 3;
__device__ __forceinline__ int dec_coding(uint32_t flags) {
  return (flags & UZIP_FLAG_LANES)   ? DEC_CODING_LANES
         : (flags & UZIP_FLAG_PAIRS) ? DEC_CODING_PAIRS
         : (flags & UZIP_FLAG_LEAN)  ? DEC_CODING_LEAN
                                     : DEC_CODING_BYTES;
}

// Lane 0 validates the header; the result is broadcast to the warp.
__device__ void read_header_dev(const DecParams& P, Hdr& h) {
  uint32_t st = 0;
  h = Hdr{};
  if (lane_id() == 0) {
    do {
      if (P.srcBytes < UZIP_HEADER_BYTES) { st = UZIP_ERR_TRUNCATED; break; }
      uint32_t w[16];
      for (int i = 0; i < 4; i++) {
        uint4 q = *((const uint4*)P.src + i);
        w[4 * i] = q.x; w[4 * i + 1] = q.y; w[4 * i + 2] = q.z; w[4 * i + 3] = q.w;
      }
      if (w[0] != UZIP_MAGIC) { st = UZIP_ERR_CORRUPT; break; }
      if ((w[1] & 0xFFu) != UZIP_VERSION) { st = UZIP_ERR_UNSUPPORTED; break; }
      if (uzip_header_check(w) != w[14] || w[15] != 0) { st = UZIP_ERR_CORRUPT; break; }
      h.dtype = (w[1] >> 8) & 0xFFu;
      h.flags = (w[1] >> 16) & 0xFFu;
      h.log2 = w[1] >> 24;
      if (h.dtype >= UZIP_DTYPE_COUNT || (h.flags & ~UZIP_FLAGS_KNOWN)) {
        st = UZIP_ERR_UNSUPPORTED;
        break;
      }
      if ((h.flags & UZIP_FLAG_LEAN) && (h.flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS))) {
        st = UZIP_ERR_CORRUPT;  // as cpu_header.cc: lean sections are the default coding's
        break;
      }
      if ((h.flags & UZIP_FLAG_PAIRS) && (!uzip_pairs_dtype_ok(h.dtype) || (h.flags & UZIP_FLAG_LANES))) {
        st = UZIP_ERR_CORRUPT;  // as cpu_header.cc: pair coding is for bf16 and fp32, not with lane streams
        break;
      }
      if ((h.flags & UZIP_FLAG_LANES) && (!(h.flags & UZIP_FLAG_SPLIT) || h.log2 > UZIP_LANES_LOG2_BLOCK_MAX)) {
        st = UZIP_ERR_CORRUPT;  // as cpu_header.cc: lane streams are split-layout, blocks <= 2^14
        break;
      }
      if (h.log2 < UZIP_LOG2_BLOCK_MIN || h.log2 > UZIP_LOG2_BLOCK_MAX) { st = UZIP_ERR_CORRUPT; break; }
      h.width = uzip_dtype_width(h.dtype);
      h.count = w[2] | ((uint64_t)w[3] << 32);
      h.total = w[4] | ((uint64_t)w[5] << 32);
      h.nblocks = w[6];
      h.checksum = w[7];
      if (!(h.flags & UZIP_FLAG_CHECKSUM) && h.checksum) { st = UZIP_ERR_CORRUPT; break; }
      uint64_t want = (h.count >> h.log2) + ((h.count & ((1ull << h.log2) - 1)) != 0);
      if (want != h.nblocks) { st = UZIP_ERR_CORRUPT; break; }
      h.dirOff = uzip_dir_offset(h.count, h.dtype, h.flags, h.log2);
      h.payloadOff = uzip_payload_offset(h.count, h.dtype, h.flags, h.log2);
      if ((w[8] | ((uint64_t)w[9] << 32)) != uzip_rem_offset(h.flags) ||
          (w[10] | ((uint64_t)w[11] << 32)) != h.dirOff || (w[12] | ((uint64_t)w[13] << 32)) != h.payloadOff) {
        st = UZIP_ERR_CORRUPT;
        break;
      }
      if (h.total < h.payloadOff || (h.total & 15u)) { st = UZIP_ERR_CORRUPT; break; }
      if (h.total > P.srcBytes) { st = UZIP_ERR_TRUNCATED; break; }
      if (h.count * h.width > P.dstCapacity) { st = UZIP_ERR_BUFFER_TOO_SMALL; break; }
      if (((uintptr_t)P.dst) & (h.width - 1)) { st = UZIP_ERR_INVALID_ARG; break; }
      if (P.other && (h.dtype != (uint32_t)P.redDtype || h.count != P.redCount)) { st = UZIP_ERR_INVALID_ARG; break; }
      // Paddings of the split plane and the directory, and the end of the last block.
      bool bad = false;
      if (h.flags & UZIP_FLAG_SPLIT)
        for (uint64_t o = UZIP_HEADER_BYTES + uzip_split_plane_bytes(h.count, h.dtype, h.flags, h.log2); o < h.dirOff;
             o++)
          bad |= P.src[o] != 0;
      for (uint64_t o = h.dirOff + 8 * h.nblocks; o < h.payloadOff; o++) bad |= P.src[o] != 0;
      uint64_t last = h.nblocks ? uzip_dir_end(ld64u(P.src + h.dirOff + 8 * (h.nblocks - 1))) : 0;
      if (bad || h.payloadOff + last != h.total) { st = UZIP_ERR_CORRUPT; break; }
    } while (false);
  }
  h.status = __shfl_sync(FULL_MASK, st, 0);
  h.dtype = __shfl_sync(FULL_MASK, h.dtype, 0);
  h.flags = __shfl_sync(FULL_MASK, h.flags, 0);
  h.log2 = __shfl_sync(FULL_MASK, h.log2, 0);
  h.width = __shfl_sync(FULL_MASK, h.width, 0);
  h.checksum = __shfl_sync(FULL_MASK, h.checksum, 0);
  h.count = __shfl_sync(FULL_MASK, h.count, 0);
  h.total = __shfl_sync(FULL_MASK, h.total, 0);
  h.nblocks = __shfl_sync(FULL_MASK, h.nblocks, 0);
  h.dirOff = __shfl_sync(FULL_MASK, h.dirOff, 0);
  h.payloadOff = __shfl_sync(FULL_MASK, h.payloadOff, 0);
}

}  // namespace uzip_gpu
#include "gpu_lanes_decode.cuh"
namespace uzip_gpu {

// Size (padded to 16) of a plane section at p with `avail` bytes to the block's end; 0 = corrupt.
// Lane-uniform; lane 0 walks the ANS segments.
// LEAN: a LEAN stream's section (FORMAT.md "Lean sections": the table's head is u8 lo, u8 hi, u16 K).
template <bool LEAN = false>
__device__ uint32_t section_size(const uint8_t* p, uint64_t avail, uint32_t mode, uint32_t planeBytes, uint32_t unit) {
  uint64_t used;
  if (mode == UZIP_MODE_RAW) used = planeBytes;
  else if (mode == UZIP_MODE_CONST) used = unit;
  else if (mode == UZIP_MODE_EXTERNAL || mode == UZIP_MODE_NONE) return 0xFFFFFFFFu;  // "empty", not an error
  else {
    uint64_t u = 0;
    if (lane_id() == 0) {
      do {
        if (avail < 36) break;  // (a lean section too: its table and one segment header are longer)
        uint64_t pos;
        if constexpr (LEAN) {
          const uint32_t lo = p[0], hi = p[1], k = *(const uint16_t*)(p + 2);
          if (lo > hi || k == 0 || k > hi - lo + 1u) break;
          pos = uzip_lean_table_bytes(k, lo, hi);
        } else {
          uint32_t k = *(const uint16_t*)p;
          if (k > 256 || *(const uint16_t*)(p + 2) != 0) break;
          pos = uzip_ans_table_bytes(k);
        }
        if (pos > avail) break;
        uint32_t nseg = uzip_ans_nseg(planeBytes);
        bool ok = true;
        for (uint32_t sg = 0; sg < nseg && ok; sg++) {
          uint32_t len = min(planeBytes - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
          if (avail - pos < UZIP_ANS_SEG_HEADER_BYTES) { ok = false; break; }
          uint32_t nw = *(const uint32_t*)(p + pos);
          uint64_t bytes = UZIP_ANS_SEG_HEADER_BYTES + 2ull * nw, padded = (bytes + 3) & ~3ull;
          if (nw > len || padded > avail - pos) { ok = false; break; }
          if (padded != bytes && *(const uint16_t*)(p + pos + bytes) != 0) { ok = false; break; }
          pos += padded;
        }
        if (ok) u = pos;
      } while (false);
    }
    used = __shfl_sync(FULL_MASK, u, 0);
    if (!used) return 0;
  }
  uint64_t padded = uzip_pad16(used);
  if (padded > avail) return 0;
  // Section padding must be zero.
  bool bad = false;
  if (lane_id() < padded - used) bad = p[used + lane_id()] != 0;
  if (__any_sync(FULL_MASK, bad)) return 0;
  return (uint32_t)padded;
}

// The words of an ANS segment stream from global memory through a ring of 4 quarters in shared memory
// (RingShape below: 256 words a quarter by default), copied with cp.async. At every step the quarter holding
// `next` and the LANDED - 1 after it have landed (a step takes at most 32 words), and the others are in
// flight; crossing into a new quarter refills the one just left. Copies stop at the segment's validated
// end, so a damaged stream never reads past its section (ring slots past the end hold stale words that the
// final check rejects).
#define RING_QUARTER 256u
// A segment pair (decode_sym_pairs) streams through two rings of 512 words (+ a 128-word copy) each, in
// the same 2560 bytes as one ring.
#define RING_PAIR_QW 128u
constexpr uint32_t RING_PAIR_BYTES = 2u * 5u * RING_PAIR_QW;
// A word ring's shape: QW words a quarter, and whether the first LANDED - 1 quarters are also copied after
// the ring's end (MIRROR, so that a group's reads need no wrap mask; the compact layout has no room for the
// copy), and how many quarters from the one holding `next` have landed at every ring_advance (LANDED; the
// others are in flight): a sub-group of steps may read (LANDED - 1) QW words ahead with no ring_advance,
// which from quarter 3 reaches that far into the copy. (The pair decoder's first ring copied only quarter 0
// with three landed: groups of more than QW words from quarter 3 read past the copy, which real weights'
// blocks did and synthetic data did not; bench/results/h200-2026-12-04T1853-session32/1-pair-decoder.)
template <uint32_t QW_, bool MIRROR_ = true, uint32_t LANDED_ = 2>
struct RingShape {
  static constexpr uint32_t QW = QW_;
  static constexpr bool MIRROR = MIRROR_;
  static constexpr uint32_t LANDED = LANDED_;
  static constexpr uint32_t COPIED = MIRROR ? LANDED - 1u : 0u;  // quarters copied after the ring
  static constexpr uint32_t BYTES = 2u * (4u + COPIED) * QW;
  static_assert(LANDED >= 2 && LANDED <= 3, "a quarter is read while the next lands; one is always in flight");
};
using RingStd = RingShape<RING_QUARTER>;                // one segment's ring: 2560 bytes with its copy
using RingPair = RingShape<RING_PAIR_QW>;               // each ring of a segment pair
// The compact layout's: 1024 bytes; three quarters landed, so that its sub-groups are 8 steps as in the
// default layout (two ring checks per 16 steps instead of four: each is ~7 instructions with the branch's
// reconvergence and the next ballot's convergence check), with one quarter (~24 bf16 steps) in flight.
using RingCompact = RingShape<DEC_COMPACT_QW, false, 3>;
template <bool COMPACT>
using DecRing = std::conditional_t<COMPACT, RingCompact, RingStd>;
// Whether the kernels of ring RS fill a few-symbol decode table symbol by symbol (load_ans_table's
// FEW_BY_SYMBOL): the compact layout's kernels, those of calls of many rounds, where a block's instructions
// count (the batched slot rounds take more) rather than its latency (bench/results/h100-2026-12-07-session55/
// 2-dec-fill: by rounds everywhere, bf16 split 1 GiB decoded 2.3% slower in the compact kernel, while the
// one-round, default and wide kernels gained 1-7% at 64 KiB-256 MiB). With this rule bf16 split 1 GiB decodes
// as main did (798.1-805.1 -> 799.4-801.4 us, bench/results/h100-2026-12-08-session56/2-enc-loads).
template <class RS>
constexpr bool dec_fill_few_by_symbol = std::is_same<RS, RingCompact>::value;
struct WordRing {
  const uint32_t* w32;  // the segment's words as u32 pairs (4-aligned: sections are 16-aligned, tables
                        // and segments 4-padded)
  uint32_t npairs, q, sbase;
  const uint16_t* ring;
};
// RS: the ring's shape (RingShape: RS::QW words a quarter). With RS::MIRROR, quarters 0 .. COPIED - 1 are also
// copied right after the ring's end (words 4 QW .. (4 + COPIED) QW - 1), in the same commit group, so that a
// group of steps starting in quarter 3 can read on past the ring's last word without wrapping its index.
template <class RS = RingStd>
__device__ __forceinline__ void ring_fill(const WordRing& r, uint32_t quarter) {
  constexpr uint32_t QW = RS::QW;
  const uint32_t dst = r.sbase + (quarter & 3u) * (QW * 2u);
  const bool mirror = RS::MIRROR && (quarter & 3u) < RS::COPIED;
#pragma unroll
  for (uint32_t j = 0; j < QW / 64u; j++) {  // QW / 2 pairs: 4 (or 2) per lane
    const uint32_t i = lane_id() + 32u * j, pair = quarter * (QW / 2u) + i;
    if (pair < r.npairs) {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst + 4u * i), "l"(r.w32 + pair) : "memory");
      if (mirror)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(r.sbase + 2u * (4u * QW) + 4u * i +
                                                                        (RS::COPIED > 1u ? (quarter & 3u) * (QW * 2u) : 0u)),
                     "l"(r.w32 + pair)
                     : "memory");
    }
  }
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// The cp.async groups of every ring of the warp share one count: "wait_group 4 - LANDED" (at most that many
// of the newest groups pending) is at least as strict for each ring as for a lone one, so two rings may
// interleave.
template <class RS>
__device__ __forceinline__ void ring_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(4 - RS::LANDED) : "memory");
}
template <class RS = RingStd>
__device__ __forceinline__ void ring_init(WordRing& r, uint8_t* ringSmem, const uint8_t* words, uint32_t nw) {
  r.w32 = (const uint32_t*)words;
  r.npairs = (nw + 1u) / 2u;
  r.q = 0;
  r.ring = (const uint16_t*)ringSmem;
  r.sbase = (uint32_t)__cvta_generic_to_shared(ringSmem);
  __syncwarp();  // earlier readers of the ring (or of the symbol list it aliases) are done
  for (uint32_t k = 0; k < 4u; k++) ring_fill<RS>(r, k);
  ring_wait<RS>();
  __syncwarp();
}
// After steps moved `next`: on entering a new quarter, refill the one(s) left (a sub-group of 8 steps may
// cross two quarters of 128 words) and wait for the ones after.
template <class RS = RingStd>
__device__ __forceinline__ void ring_advance(WordRing& r, uint32_t next) {
  if ((next / RS::QW) != r.q) {  // warp-uniform
    __syncwarp();                // every lane's reads of the quarters left are done
#pragma unroll 1
    do {
      ring_fill<RS>(r, r.q + 4u);
      r.q++;
    } while ((next / RS::QW) != r.q);
    ring_wait<RS>();
    __syncwarp();
  }
}
__device__ __forceinline__ void ring_end() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncwarp();
}

// A LEAN stream's table (FORMAT.md "Lean sections": u8 lo, u8 hi, u16 K, then the range form or the bitmap
// form; section_size checked lo <= hi, 1 <= K <= hi - lo + 1 and that its bytes exist): this lane's 8
// frequencies into f, the table bytes returned, 0 when corrupt. The bitmap form's frequencies are read as in
// any stream's table (load_ans_table); here only its lo and hi are checked, and *bitmapForm set.
__device__ __forceinline__ uint32_t lean_table_freqs(const uint8_t* p, uint32_t (&f)[8], uint32_t& bits,
                                                     bool& bitmapForm) {
  const uint32_t lane = lane_id(), lo = p[0], hi = p[1], k = *(const uint16_t*)(p + 2);
  bitmapForm = !uzip_lean_range_form(k, lo, hi);
  bool bad = false;
  bits = 0;
  if (!bitmapForm) {  // every symbol lo..hi has its u16 (0: absent); both ends present; the padding zero
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const uint32_t s = 8u * lane + i;
      f[i] = s >= lo && s <= hi ? *(const uint16_t*)(p + 4 + 2 * (s - lo)) : 0u;
      bad |= f[i] > UZIP_ANS_M;
      if (f[i]) bits |= 1u << i;
    }
    const uint32_t span = hi - lo + 1u;
    if (lane == (lo >> 3)) bad |= !((bits >> (lo & 7u)) & 1u);
    if (lane == (hi >> 3)) bad |= !((bits >> (hi & 7u)) & 1u);
    if (span & 1u) bad |= lane == 0 && *(const uint16_t*)(p + 4 + 2 * span) != 0;
  } else {  // the bitmap's lowest and highest symbols are lo and hi
    bits = p[4 + lane];
    const uint32_t any = __ballot_sync(FULL_MASK, bits != 0);
    if (!any) return 0;
    const uint32_t loLane = (uint32_t)__ffs(any) - 1u, hiLane = 31u - (uint32_t)__clz(any);
    const uint32_t loB = __shfl_sync(FULL_MASK, bits, loLane), hiB = __shfl_sync(FULL_MASK, bits, hiLane);
    bad = 8u * loLane + (uint32_t)__ffs(loB) - 1u != lo || 8u * hiLane + 31u - (uint32_t)__clz(hiB) != hi;
  }
  if (__any_sync(FULL_MASK, bad)) return 0;
  return uzip_lean_table_bytes(k, lo, hi);
}

// Validates the ANS table at p and builds the decode table. Returns the table bytes, 0 if corrupt.
// Every store fills 32 consecutive slots (no bank conflicts). LEAN: a LEAN stream's table (lean_table_freqs).
// FEW_BY_SYMBOL: tables of at most UZIP_DEC_TAB_FEW_K symbols (bf16, fp32 exponents) symbol by symbol, as
// the compact kernels do (dec_fill_few_by_symbol); else every table of at most UZIP_DEC_TAB_BITMAP_K symbols
// by slot rounds.
template <bool LEAN = false, bool FEW_BY_SYMBOL = false>
__device__ __forceinline__ uint32_t load_ans_table(const uint8_t* p, uint32_t* tab, uint32_t* info) {
  const uint32_t lane = lane_id();
  UZIP_CLK_DECL;  // profiling builds: its parts in slots 24-26 (for_each_segment's segment start: 27)
  const uint32_t k = *(const uint16_t*)(p + (LEAN ? 2 : 0));
  uint32_t f[8], local = 0, bits;
  bool bitmapForm = true;
  uint32_t tb;
  if constexpr (LEAN) {
    tb = lean_table_freqs(p, f, bits, bitmapForm);
    if (!tb) return 0;
  } else {
    bits = p[4 + lane];
    tb = uzip_ans_table_bytes(k);
  }
  uint32_t rank = warp_excl_scan(__popc(bits));
  uint32_t pop = warp_sum_u32(__popc(bits));
  if (pop != k) return 0;
  UZIP_CLK(24);
  const uint32_t rank0 = rank;
  bool bad = false;
  if (bitmapForm) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      f[i] = 0;
      if (bits & (1u << i)) {
        f[i] = *(const uint16_t*)(p + 36 + 2 * rank++);
        bad |= f[i] == 0 || f[i] > UZIP_ANS_M;
      }
      local += f[i];
    }
    if (k & 1u) bad |= lane == 0 && *(const uint16_t*)(p + 36 + 2 * k) != 0;
  } else {
#pragma unroll
    for (int i = 0; i < 8; i++) local += f[i];
  }
  uint32_t total = warp_sum_u32(local);
  if (__any_sync(FULL_MASK, bad) || total != UZIP_ANS_M) return 0;
  uint32_t cum = warp_excl_scan(local);
  __syncwarp();
  UZIP_CLK(25);
  rank = rank0;
  const bool fewBySymbol = FEW_BY_SYMBOL && k <= UZIP_DEC_TAB_FEW_K;
  if (fewBySymbol || k > UZIP_DEC_TAB_BITMAP_K) {
    // The few (in the compact kernels) and the most symbols fill from info[r] = symbol r's entry: symbol | f << 8
    // | cum << 20.
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if (f[i]) info[rank++] = (8u * lane + i) | (f[i] << 8) | (cum << 20);
      cum += f[i];
    }
    __syncwarp();
  }
  if (fewBySymbol) {
    // Few symbols (bf16 and fp32 exponents: k ~ 20-40) in the compact kernels: symbol by symbol, 32 consecutive
    // slots per store.
    uint32_t en = info[0];
    for (uint32_t r = 0; r < k; r++) {
      const uint32_t e = en;
      en = info[r + 1 < k ? r + 1 : r];
      const uint32_t fr = (e >> 8) & 0xFFFu, c0 = e >> 20, head = (e & 0xFFu) | (fr << 20);
      for (uint32_t j = lane; j < fr; j += 32) tab[c0 + j] = head | (j << 8);
    }
    __syncwarp();
    UZIP_CLK(26);
    return tb;
  }
  if (k <= UZIP_DEC_TAB_BITMAP_K) {
    // By slot rounds (fp16, fp8: k ~ 100 and more; outside the compact kernels every table): the bitmap of
    // the symbols' first slots (bit cum of word cum / 32, after UZIP_DEC_TAB_BITMAP_K entries) and info[r] =
    // the entry of symbol r less its cum in the slot field (cum << 8), so that slot 32 i + lane, of symbol r =
    // (symbols starting before the round) + (starts at or below the lane in it) - 1, gets info[r] + (slot <<
    // 8). Against the walk below (bench/results/h200-2026-12-03T0950-session21/4-dec-table): fp16 decode 1 MiB
    // 65.5 -> 58.8 us, 256 MiB 246 -> 230 us, fp8 +2-4%. Until session 55 each round's loads came after the
    // last round's table store (the compiler cannot tell the arrays apart), one dependent chain of ~80 cycles a
    // round, slower than the symbol-by-symbol fill for few symbols (bf16, fp32: 1-6% in sessions 22 and 39).
    uint32_t* bm = info + UZIP_DEC_TAB_BITMAP_K;
    bm[lane] = 0u;
    bm[lane + 32u] = 0u;
    __syncwarp();
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if (f[i]) {
        info[rank++] = ((8u * lane + i) | (f[i] << 20)) - (cum << 8);
        atomicOr(&bm[cum >> 5], 1u << (cum & 31u));
      }
      cum += f[i];
    }
    __syncwarp();
    // Eight rounds at a time, their loads (two 16-byte broadcasts of the bitmap, then the eight entries) before
    // their stores. H100, against the rounds one by one and few symbols by symbol (bench/results/
    // h100-2026-12-07-session55/2-dec-fill, two rounds, back to back): bf16 split decode 64 KiB 20.2 -> 19.2 us,
    // 1 MiB 20.9 -> 20.3, 64 MiB 68.2 -> 66.7; fp16 1 MiB 33.5 -> 31.2, 256 MiB 255.6 -> 247.3 (event-timed);
    // fp8 1 MiB 51.2 -> 47.1, 256 MiB -3.2%; fp32 256 MiB -2.5%; but bf16 split 1 GiB in the compact kernel
    // +2.3% (800.9-804.0 -> 819.2-823.4 us), so those keep few symbols by symbol (FEW_BY_SYMBOL).
    const uint32_t le = lanemask_lt() | (1u << lane);
    uint32_t before = 0;
#pragma unroll 1
    for (uint32_t i0 = 0; i0 < UZIP_ANS_M / 32u; i0 += 8u) {
      const uint4 wa = *(const uint4*)(bm + i0), wb = *(const uint4*)(bm + i0 + 4u);
      const uint32_t w[8] = {wa.x, wa.y, wa.z, wa.w, wb.x, wb.y, wb.z, wb.w};
      uint32_t e[8];
#pragma unroll
      for (int j = 0; j < 8; j++) {
        e[j] = info[before + __popc(w[j] & le) - 1u];
        before += __popc(w[j]);
      }
#pragma unroll
      for (int j = 0; j < 8; j++) {
        const uint32_t slot = 32u * (i0 + j) + lane;
        tab[slot] = e[j] + (slot << 8);
      }
    }
    __syncwarp();
    return tb;
  }
  // The most symbols (k > UZIP_DEC_TAB_BITMAP_K): slot 32 i + lane for i = 0..63, each lane walking the
  // symbols (ascending cum) forward as its slots grow; 32 consecutive slots per store.
  {
    uint32_t r = 0, e = info[0];
    uint32_t nextCum = info[1] >> 20;
#pragma unroll 4
    for (uint32_t slot = lane; slot < UZIP_ANS_M; slot += 32) {
      while (slot >= nextCum) {  // every f >= 1 and the f sum to M (checked above): ends at r < k
        e = info[++r];
        nextCum = r + 1 < k ? info[r + 1] >> 20 : UZIP_ANS_M;
      }
      tab[slot] = (e & 0xFFu) | (((e >> 8) & 0xFFFu) << 20) | ((slot - (e >> 20)) << 8);
    }
  }
  __syncwarp();
  return tb;
}

// A decode table entry: the symbol in bits 0..7 (stored as the entry's low byte, no shift), (slot - cum) in
// 8..18 (< f <= 2048), f in 20..31. The next state f * (x >> 11) + slot - cum is f * ((x >> 11) - 4096) +
// (e >> 8) mod 2^32, as e >> 8 = (slot - cum) + f * 4096: one shift per field on the chain, as before.
// BITS: the table's (the pair decoder's are 2^12: (slot - cum) in 8..19).
template <uint32_t BITS = UZIP_ANS_PROB_BITS>
__device__ __forceinline__ uint32_t dec_next(uint32_t e, uint32_t x) {
  return (e >> 20) * (x >> BITS) + ((e >> 8) & ((1u << BITS) - 1u));
}
__device__ __forceinline__ uint32_t dec_sym(uint32_t e) { return e & 0xFFu; }

// One decode step of a lane from its table entry e (inactive lanes keep their state): the next state, and
// the next word where it fell under L. Returns false when the words run out (corrupt). BITS: the table's
// (the pair decoder's are 2^12).
template <class RS, uint32_t BITS>
__device__ __forceinline__ bool dec_step_entry(uint32_t& x, uint32_t& next, uint32_t nw, bool active, uint32_t e,
                                               WordRing& wr, uint32_t lt) {
  uint32_t xn = dec_next<BITS>(e, x);
  if (!active) xn = x;
  const bool need = active && xn < UZIP_ANS_L;
  const uint32_t mask = __ballot_sync(FULL_MASK, need);
  const uint32_t c = __popc(mask);
  if (next + c > nw) return false;
  if (need) xn = (xn << 16) | wr.ring[(next + __popc(mask & lt)) & (4u * RS::QW - 1u)];
  x = xn;
  next += c;
  ring_advance<RS>(wr, next);
  return true;
}
// One decode step through the 2^11-slot table at tab; s gets the symbol.
template <class RS = RingStd>
__device__ __forceinline__ bool dec_step(uint32_t& x, uint32_t& next, uint32_t nw, bool active, const uint32_t* tab,
                                         WordRing& wr, uint32_t lt, uint32_t& s) {
  const uint32_t e = tab[x & (UZIP_ANS_M - 1u)];
  s = dec_sym(e);
  return dec_step_entry<RS, UZIP_ANS_PROB_BITS>(x, next, nw, active, e, wr, lt);
}

// Opens the ANS segment at p + *off (inside a section whose segments section_size walked): its word count
// nw and this lane's final state x, and the word ring started on its words; *off moves past it. False
// when a state is outside [L, 2^31) (corrupt).
template <class RS = RingStd>
__device__ __forceinline__ bool segment_open(const uint8_t* p, uint32_t* off, uint8_t* ringSmem, uint32_t& nw,
                                             uint32_t& x, WordRing& wr) {
  const uint8_t* seg = p + *off;
  nw = *(const uint32_t*)seg;
  x = *(const uint32_t*)(seg + 4 + 4 * lane_id());
  if (__any_sync(FULL_MASK, x < UZIP_ANS_L || x >= UZIP_ANS_X_END)) return false;
  ring_init<RS>(wr, ringSmem, seg + UZIP_ANS_SEG_HEADER_BYTES, nw);
  *off += (UZIP_ANS_SEG_HEADER_BYTES + 2u * nw + 3u) & ~3u;
  return true;
}
// Whether a decoded segment ended exactly: every word used (next == nw) and every state back at L.
__device__ __forceinline__ bool segment_closed(uint32_t next, uint32_t nw, uint32_t x) {
  return !__any_sync(FULL_MASK, next != nw || x != UZIP_ANS_L);
}

// Walks the ANS segments of a plane section at p (validated sizes) of planeBytes symbols: builds the
// decode table, then for each segment reads its word count and the lanes' final states, starts the word
// ring and calls body(len, base, nw, x, next, wr) (segment length, plane index of its first symbol, word
// count, this lane's state, words consumed, the ring; false = corrupt), then checks that the segment
// ended exactly (every word used, every state back at L). Returns false when the stream is corrupt.
// A seeded segment's end (FORMAT.md "Lean sections"): every word used and every state in [2^k, 2^(k+1)).
__device__ __forceinline__ bool segment_closed_seeded(uint32_t next, uint32_t nw, uint32_t x, uint32_t k) {
  return !__any_sync(FULL_MASK, next != nw || (x >> k) != 1u);
}
// What for_each_segment does after a seeded segment: nothing (planes without seeds).
struct NoSeedTail {
  __device__ __forceinline__ void operator()(uint32_t, uint32_t, uint32_t) const {}
};
// LEAN: a LEAN stream's table; seedK (LEAN only; a seeded stream's symbol plane, FORMAT.md "Lean sections"):
// the segments whose length is a multiple of 32 and at least 32 * seedE end in [2^seedK, 2^(seedK+1)), and
// tail(len, base, seed) then gets this lane's seed (its end state less 2^seedK); 0: every segment ends at L.
template <class RS = RingStd, bool LEAN = false, typename Body, typename Tail = NoSeedTail>
__device__ __forceinline__ bool for_each_segment(const uint8_t* p, uint32_t planeBytes, uint32_t* tab, uint32_t* info,
                                                 uint8_t* ringSmem, Body body, uint32_t seedK = 0, uint32_t seedE = 0,
                                                 Tail tail = Tail{}) {
  uint32_t off = load_ans_table<LEAN, dec_fill_few_by_symbol<RS>>(p, tab, info);
  if (!off) return false;
  const uint32_t nseg = uzip_ans_nseg(planeBytes);
  for (uint32_t sg = 0; sg < nseg; sg++) {
    const uint32_t len = min(planeBytes - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
    uint32_t nw, x, next = 0;
    WordRing wr;
    UZIP_CLK_DECL;
    if (!segment_open<RS>(p, &off, ringSmem, nw, x, wr)) return false;
    UZIP_CLK(27);
    const bool ok = body(len, sg * UZIP_ANS_SEG_SYMS, nw, x, next, wr);
    ring_end();  // no copy may still be landing in the ring when it is reused
    if (!ok) return false;
    if (LEAN && seedK && (len & 31u) == 0 && len >= 32u * seedE) {
      if (!segment_closed_seeded(next, nw, x, seedK)) return false;
      tail(len, sg * UZIP_ANS_SEG_SYMS, x - (1u << seedK));
    } else if (!segment_closed(next, nw, x)) {
      return false;
    }
  }
  return true;
}

// Decodes an ANS section (validated sizes) of planeBytes bytes; for each decoded byte k calls
// emit(k, byte). Returns false when the stream is corrupt.
template <class RS = RingStd, bool LEAN = false, typename Emit>
__device__ __forceinline__ bool decode_ans(const uint8_t* p, uint32_t planeBytes, uint32_t* tab, uint32_t* info,
                                           uint8_t* ringSmem, Emit emit) {
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  return for_each_segment<RS, LEAN>(p, planeBytes, tab, info, ringSmem,
                          [&](uint32_t len, uint32_t base, uint32_t nw, uint32_t& x, uint32_t& next, WordRing& wr) {
                            const uint32_t T = (len + 31u) / 32u;
                            for (uint32_t t = 0; t < T; t++) {
                              const uint32_t k = 32u * t + lane;
                              uint32_t s;
                              if (!dec_step<RS>(x, next, nw, k < len, tab, wr, lt, s)) return false;
                              if (k < len) emit(base + k, s);
                            }
                            return true;
                          });
}

// The remainder of element k for the non-ANS remainder modes (rem = the plane's bytes, or CONST), as
// raw loaded bytes (NB of them) that are combined only when used, so a prefetch never waits on its load.
template <int W>
struct RemRaw {
  static constexpr int NB = W == 4 ? 3 : 1;
  uint32_t b[NB];
};
template <int W>
__device__ __forceinline__ void rem_load(RemRaw<W>& r, const uint8_t* rem, bool isConst, uint32_t remConst, uint32_t k,
                                         bool valid) {
  if (W == 1 || isConst || !valid) {
    r.b[0] = remConst;  // W == 4: a CONST remainder is whole in b[0]
#pragma unroll
    for (int i = 1; i < RemRaw<W>::NB; i++) r.b[i] = 0;
    return;
  }
  const uint8_t* q = rem + (size_t)k * (W - 1);
#pragma unroll
  for (int i = 0; i < RemRaw<W>::NB; i++) r.b[i] = __ldg(q + i);
}
template <int W>
__device__ __forceinline__ uint32_t rem_value(const RemRaw<W>& r) {
  if (W == 4) return r.b[0] | (r.b[RemRaw<W>::NB > 1 ? 1 : 0] << 8) | (r.b[RemRaw<W>::NB > 2 ? 2 : 0] << 16);
  return r.b[0];
}
template <int W>
__device__ __forceinline__ uint32_t rem_at(const uint8_t* rem, bool isConst, uint32_t remConst, uint32_t k) {
  RemRaw<W> r;
  rem_load<W>(r, rem, isConst, remConst, k, true);
  return W == 1 ? 0u : rem_value<W>(r);
}

// The remainder of element k of a seeded stream's block of m elements whose symbol plane is RAW or CONST
// (FORMAT.md "Lean sections"): from the block's part of the split plane (plane), or from the seed section
// after the symbol section (seedP) for a seeded segment's last 32 E elements.
template <int W>
__device__ __forceinline__ uint32_t rem_seeded(const uint8_t* plane, const uint8_t* seedP, uint32_t m, uint32_t k) {
  constexpr uint32_t RW = W > 1 ? W - 1 : 1;
  uint32_t off;
  const uint8_t* q = uzip_seeded_place(k, m, W, &off) ? plane + off : seedP + off;
  uint32_t r = 0;
#pragma unroll
  for (uint32_t j = 0; j < RW; j++) r |= (uint32_t)__ldg(q + j) << (8u * j);
  return r;
}

// U steps of the symbol plane: decode with the remainders in `use`, while the loads of the next group
// fill `fill`. Returns false on corrupt input.
template <int W, int U, class RS = RingStd>
__device__ __forceinline__ bool dec_group(uint32_t& x, uint32_t& next, uint32_t nw, uint32_t t0, uint32_t T, uint32_t len,
                                          uint32_t base, const uint32_t* tab, WordRing& wr, uint32_t lt,
                                          const RemRaw<W> (&use)[U], RemRaw<W> (&fill)[U], const uint8_t* rem,
                                          bool isConst, uint32_t remConst, uint8_t* out) {
  const uint32_t lane = lane_id();
#pragma unroll
  for (int u = 0; u < U; u++) {
    const uint32_t k = 32u * (t0 + U + u) + lane;
    rem_load<W>(fill[u], rem, isConst, remConst, base + k, k < len);
  }
#pragma unroll
  for (int u = 0; u < U; u++) {
    const uint32_t t = t0 + u;
    if (t >= T) break;
    const uint32_t k = 32u * t + lane;
    uint32_t s;
    if (!dec_step<RS>(x, next, nw, k < len, tab, wr, lt, s)) return false;
    if (k < len) {
      uint32_t rv = W == 1 ? 0u : isConst ? remConst : rem_value<W>(use[u]);
      store_elem<W>(out + (size_t)(base + k) * W, uzip_join(s, rv, W));
    }
  }
  return true;
}

// The vector path of a full group (remainders a byte plane, destination 16-byte aligned): the U steps
// leave their symbols in the warp's DEC_SYMS bytes in element order (step u, lane l -> byte 32u + l), so
// that lane l then owns the group's elements U*l .. U*l + U - 1: it reads their symbols and remainders as
// vectors and stores the finished elements as vectors. Against one remainder byte load, a join and a
// 2-byte store per element per step, that is about half the instructions of a decode step.
template <int W, int U>
struct DecVec {
  static constexpr uint32_t RW = W > 1 ? W - 1 : 0;
  static constexpr uint32_t NREM = U * RW / 4;  // remainder words per lane per group
  static constexpr bool OK = (U * RW) % 4 == 0 && U % 4 == 0 && 32 * U <= DEC_SYMS_BYTES;
  uint32_t r[NREM > 0 ? NREM : 1];
};
// The part both steps share (operands: %0 state, %2 entry, %3 table, %4 lane mask): the entry, the next
// state (f * ((x >> 11) - 4096) + (e >> 8), dec_next's value), the ballot of the lanes that need a word,
// and this lane's rank among them in a. DEC_VEC_STEP_CHAIN(SHIFT) is the part after the entry's load in %2,
// SHIFT the table's bits as a PTX immediate: the pair decoder's step (pairs_dec_vec_step, 2^12 slots, whose
// entries keep f in bits 20..31 too) forms its entry otherwise and shares it.
static_assert(UZIP_ANS_L == 32768u, "DEC_VEC_STEP_CHAIN tests the state against L as an immediate");
#define DEC_VEC_STEP_CHAIN(SHIFT) \
  "shr.u32 f, %2, 20;\n\t" \
  "shr.u32 h, %0, " SHIFT ";\n\t" \
  "sub.u32 h, h, 4096;\n\t" \
  "shr.u32 a, %2, 8;\n\t" \
  "mad.lo.u32 %0, f, h, a;\n\t" \
  "setp.lt.u32 p, %0, 32768;\n\t" /* UZIP_ANS_L */ \
  "vote.sync.ballot.b32 m, p, -1;\n\t" \
  "and.b32 a, m, %4;\n\t" \
  "popc.b32 a, a;\n\t"
#define DEC_VEC_STEP_HEAD \
  "{\n\t.reg .pred p;\n\t.reg .b32 a, f, h, m, w;\n\t" \
  "and.b32 a, %0, 2047;\n\t" \
  "mad.lo.u32 a, a, 4, %3;\n\t" \
  "ld.shared.u32 %2, [a];\n\t" DEC_VEC_STEP_CHAIN("11")
// The word part (operand %1: the ring address of the step's first word), which closes the block.
#define DEC_VEC_STEP_WORD \
  "mad.lo.u32 a, a, 2, %1;\n\t" \
  "ld.shared.u16 w, [a];\n\t" \
  "@p prmt.b32 %0, w, %0, 0x5410;\n\t" \
  "popc.b32 m, m;\n\t" \
  "mad.lo.u32 %1, m, 2, %1;\n\t" \
  "}"
// One step of the vector path's chain for a group inside one ring quarter (dec_group_vec), in PTX: the table
// entry at tabS + 4 * (x & 2047), the next state, the warp's ballot of the lanes that need a word, and for
// those the word at gS + 2 * (rank among them), merged into the state in place by a predicated byte
// permute; gS moves past the step's words. Returns the entry (dec_sym). Written in C++ the step took 23
// SASS instructions (ncu, bench/results/h200-2026-12-02T1136-session16/5-inst): ptxas tested the word need
// twice (one compare for the ballot, one for the predicate), merged through a predicated move, and formed
// the table address in three instructions; this form is 18. Every lane loads a word: the address of a lane
// that needs none is that of a lane that does (its rank), inside the ring and its copy of quarter 0 like
// any other, and a predicated load left ptxas keeping each step's old word alive (spills). Volatile: the
// ring's words land by cp.async, whose waits are asm too, and the loads must stay after them.
__device__ __forceinline__ uint32_t dec_vec_step(uint32_t& x, uint32_t& gS, uint32_t tabS, uint32_t lt) {
  uint32_t e;
  asm volatile(DEC_VEC_STEP_HEAD DEC_VEC_STEP_WORD : "+r"(x), "+r"(gS), "=r"(e) : "r"(tabS), "r"(lt));
  return e;
}
// dec_vec_step for the compact layout's ring (RingCompact, no copy of quarter 0; 1024-byte aligned): G is
// twice the segment's word index, and the word's shared address is ((G + 2 rank) & 1022) | ringS, one
// LOP3 after the rank's LEA (an add, an and and a multiply-add before the rings were aligned). Same shape
// and volatile for the same reasons.
__device__ __forceinline__ uint32_t dec_vec_step_wrap(uint32_t& x, uint32_t& G, uint32_t ringS, uint32_t tabS,
                                                      uint32_t lt) {
  static_assert(2u * 4u * DEC_COMPACT_QW == 1024u, "the mask below is the compact ring's bytes - 2");
  uint32_t e;
  asm volatile(
      DEC_VEC_STEP_HEAD
      "mad.lo.u32 a, a, 2, %1;\n\t"
      "and.b32 a, a, 1022;\n\t"
      "or.b32 a, a, %5;\n\t"
      "ld.shared.u16 w, [a];\n\t"
      "@p prmt.b32 %0, w, %0, 0x5410;\n\t"
      "popc.b32 m, m;\n\t"
      "mad.lo.u32 %1, m, 2, %1;\n\t"
      "}"
      : "+r"(x), "+r"(G), "=r"(e)
      : "r"(tabS), "r"(lt), "r"(ringS));
  return e;
}
// n 4-byte words from p (aligned to 4 * n when n is 2 or 4, else to 4): through the read-only path, or
// (COH) with plain loads, for bytes this kernel wrote and for shared memory.
template <int N, bool COH = false>
__device__ __forceinline__ void ld_words(uint32_t* w, const uint8_t* p) {
  if (N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N / 4; i++) {
      const uint4 q = COH ? ((const uint4*)p)[i] : __ldg((const uint4*)p + i);
      w[4 * i] = q.x; w[4 * i + 1] = q.y; w[4 * i + 2] = q.z; w[4 * i + 3] = q.w;
    }
  } else if (N % 2 == 0) {
#pragma unroll
    for (int i = 0; i < N / 2; i++) {
      const uint2 q = COH ? ((const uint2*)p)[i] : __ldg((const uint2*)p + i);
      w[2 * i] = q.x; w[2 * i + 1] = q.y;
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; i++) w[i] = COH ? ((const uint32_t*)p)[i] : __ldg((const uint32_t*)p + i);
  }
}
// n 4-byte words to global memory at p (aligned to 4 * min(n, 4)).
template <int N>
__device__ __forceinline__ void st_words(uint8_t* p, const uint32_t* w) {
  if (N == 1) {
    *(uint32_t*)p = w[0];
  } else if (N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N / 4; i++) ((uint4*)p)[i] = make_uint4(w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
  } else {
#pragma unroll
    for (int i = 0; i < N / 2; i++) ((uint2*)p)[i] = make_uint2(w[2 * i], w[2 * i + 1]);
  }
}
// Four finished elements from four symbols (bytes of s) and their remainders (rw bytes each, packed in r).
// bf16/fp16: bytes [r0 s0 r1 s1] then a 1-bit right rotation of each 16-bit half; fp32: [r r r s] words
// rotated right by 1; one-byte types: the symbols are the elements.
template <int W>
__device__ __forceinline__ void join4(uint32_t s, const uint32_t* r, uint32_t* out) {
  if (W == 1) {
    out[0] = s;
  } else if (W == 2) {
    const uint32_t a = __byte_perm(r[0], s, 0x5140), b = __byte_perm(r[0], s, 0x7362);
    out[0] = rotr1_halves(a);
    out[1] = rotr1_halves(b);
  } else {
    const uint32_t e0 = __byte_perm(r[0], s, 0x4210);
    const uint32_t e1 = __byte_perm(__byte_perm(r[0], r[1], 0x0543), s, 0x5210);
    const uint32_t e2 = __byte_perm(__byte_perm(r[1], r[2], 0x0432), s, 0x6210);
    const uint32_t e3 = __byte_perm(r[2], s, 0x7321);
    out[0] = __funnelshift_r(e0, e0, 1);
    out[1] = __funnelshift_r(e1, e1, 1);
    out[2] = __funnelshift_r(e2, e2, 1);
    out[3] = __funnelshift_r(e3, e3, 1);
  }
}

// One full group on the vector path: decodes U steps (the ring moves on once per group when a group's
// words fit in a ring quarter), with the next group's remainders loading into `fill`, then joins and
// stores this group's elements from `use`. remP: this lane's remainders of the next group; outP: its
// elements of this group; both move on by a group (pointers carried, where 64-bit products of t0 took a few
// instructions a group).
// COMPACT: the compact layout's ring (RingCompact: no copy of quarter 0, so each step wraps its word index,
// dec_vec_step_wrap); syms is then its DEC_COMPACT_SYMS.
template <int W, int U, bool COH, bool COMPACT = false>
__device__ __forceinline__ void dec_group_vec(uint32_t& x, uint32_t& next, uint32_t t0, uint32_t T, const uint32_t* tab,
                                              WordRing& wr, uint32_t lt, const DecVec<W, U>& use, DecVec<W, U>& fill, const uint8_t*& remP,
                                              uint8_t* syms, uint8_t*& outP) {
  using V = DecVec<W, U>;
  const uint32_t lane = lane_id();
  if (W > 1 && t0 + U < T) ld_words<V::NREM, COH>(fill.r, remP);
  remP += 32u * U * V::RW;
  // The steps go in sub-groups of at most (LANDED - 1) QW / 32 = 8 (a step takes at most 32 words): after
  // ring_advance the quarter holding `next` and the LANDED - 1 after it have landed, so a sub-group reads
  // its words relative to its first with no wrap mask (they lie within the ring and its copy of quarter 0,
  // ring_fill): two fewer dependent instructions a step, +2% bf16 decode at 1 GiB
  // (bench/results/h200-2026-11-30T2050-session5/7-ring-mirror). Groups of 16 steps (fp32's kernel) moved
  // the ring after every step before.
  using RS = DecRing<COMPACT>;
  constexpr uint32_t AHEAD = (RS::LANDED - 1u) * RS::QW;  // words a sub-group may read past `next`
  constexpr int SUB = 32u * U <= AHEAD ? U : (int)(AHEAD / 32u);
  static_assert(U % SUB == 0, "a group is whole sub-groups");
  static_assert(!COMPACT || 32u * U <= DEC_COMPACT_SYMS_BYTES, "a group's symbols fit the compact layout");
  const uint32_t tabS = (uint32_t)__cvta_generic_to_shared(tab);
  if constexpr (COMPACT) {
    const uint32_t ringS = (uint32_t)__cvta_generic_to_shared(wr.ring);
    uint32_t G = 2u * next;
#pragma unroll
    for (int h = 0; h < U; h += SUB) {
      ring_advance<RS>(wr, G >> 1);
#pragma unroll
      for (int u = h; u < h + SUB; u++) syms[32u * u + lane] = (uint8_t)dec_sym(dec_vec_step_wrap(x, G, ringS, tabS, lt));
    }
    next = G >> 1;
  } else {
    uint32_t used = 0;
#pragma unroll
    for (int h = 0; h < U; h += SUB) {
      ring_advance<RS>(wr, next + used);
      const uint32_t gS0 = (uint32_t)__cvta_generic_to_shared(wr.ring + ((next + used) & (4u * RS::QW - 1u)));
      uint32_t gS = gS0;
#pragma unroll
      for (int u = h; u < h + SUB; u++) syms[32u * u + lane] = (uint8_t)dec_sym(dec_vec_step(x, gS, tabS, lt));
      used += (gS - gS0) >> 1;
    }
    next += used;
  }
  __syncwarp();
  uint32_t sw[U / 4], ow[U * W / 4];
  ld_words<U / 4, true>(sw, syms + U * lane);
  __syncwarp();  // the next group's symbol stores come after every lane's reads
#pragma unroll
  for (int i = 0; i < U / 4; i++) join4<W>(sw[i], use.r + (W > 1 ? i * V::RW : 0), ow + i * W);
  st_words<U * W / 4>(outP, ow);
  outP += 32u * U * W;
}

// One group of U steps of two segments at once (decode_sym_pairs): chain c decodes segment c of the pair
// (elements base + c * UZIP_ANS_SEG_SYMS ..) from ring wr[c]. The two chains are independent, so their steps
// interleave: where one waits on its table or word load, the other issues. Then both groups are joined and
// stored as on the vector path (dec_group_vec), chain c's symbols at syms + 32 * U * c.
template <int W, int U>
__device__ __forceinline__ void dec_group_vec2(uint32_t (&x)[2], uint32_t (&next)[2], uint32_t t0, uint32_t T,
                                               uint32_t base, const uint32_t* tab, WordRing (&wr)[2], uint32_t lt,
                                               const DecVec<W, U> (&use)[2], DecVec<W, U> (&fill)[2],
                                               const uint8_t* rem, uint8_t* syms, uint8_t* out) {
  using V = DecVec<W, U>;
  static_assert(32u * U <= RING_PAIR_QW, "a group must read within one ring quarter and its successor");
  const uint32_t lane = lane_id();
#pragma unroll
  for (int c = 0; c < 2; c++) {
    const uint32_t b = base + c * UZIP_ANS_SEG_SYMS;
    if (W > 1 && t0 + U < T) ld_words<V::NREM>(fill[c].r, rem + (size_t)(b + 32u * (t0 + U)) * V::RW + U * V::RW * lane);
    ring_advance<RingPair>(wr[c], next[c]);
  }
  // Each chain's steps through dec_vec_step, as on the one-chain vector path (its shared word address moves
  // on by the words a step took); a group's words lie within the quarter holding next[c] and the one
  // after it (or the ring's copy of quarter 0), so no wrap mask.
  const uint32_t tabS = (uint32_t)__cvta_generic_to_shared(tab);
  uint32_t gS[2], gS0[2];
#pragma unroll
  for (int c = 0; c < 2; c++)
    gS[c] = gS0[c] = (uint32_t)__cvta_generic_to_shared(wr[c].ring + (next[c] & (4u * RING_PAIR_QW - 1u)));
#pragma unroll
  for (int u = 0; u < U; u++) {
#pragma unroll
    for (int c = 0; c < 2; c++)
      syms[32u * U * c + 32u * u + lane] = (uint8_t)dec_sym(dec_vec_step(x[c], gS[c], tabS, lt));
  }
  __syncwarp();
  uint32_t sw[2][U / 4];
#pragma unroll
  for (int c = 0; c < 2; c++) {
    next[c] += (gS[c] - gS0[c]) >> 1;
    ld_words<U / 4, true>(sw[c], syms + 32u * U * c + U * lane);
  }
  __syncwarp();  // the next group's symbol stores come after every lane's reads
#pragma unroll
  for (int c = 0; c < 2; c++) {
    uint32_t ow[U * W / 4];
#pragma unroll
    for (int i = 0; i < U / 4; i++) join4<W>(sw[c][i], use[c].r + (W > 1 ? i * V::RW : 0), ow + i * W);
    st_words<U * W / 4>(out + (size_t)(base + c * UZIP_ANS_SEG_SYMS + 32u * t0 + U * lane) * W, ow);
  }
}

// The symbol plane of a block of whole segment pairs (m a multiple of 2 * UZIP_ANS_SEG_SYMS: 2^15-element
// blocks and larger) on the vector path, two segments at a time (dec_group_vec2): one warp then has two
// independent state chains, where one segment's chain alone leaves it waiting on its two shared loads a
// step. Same checks as for_each_segment: states >= L at the start, every word used and every state back
// at L at the end. Remainders are read through __ldg (not for a plane this kernel wrote: with both chains
// storing, one chain's elements would overwrite remainders the other has yet to read).
constexpr int DEC_PAIR_U = 4;  // steps per group of each chain: a group's words must fit a RING_PAIR_QW quarter
template <int W, int U>
__device__ __forceinline__ bool decode_sym_pairs(const uint8_t* p, uint32_t m, uint32_t* tab, uint32_t* info,
                                                 uint8_t* ringSmem, uint8_t* syms, const uint8_t* rem, uint8_t* out) {
  using V = DecVec<W, U>;
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  uint32_t off = load_ans_table(p, tab, info);  // (never a LEAN stream's: decode_sym_elems)
  if (!off) return false;
  constexpr uint32_t T = UZIP_ANS_SEG_SYMS / 32u;
  for (uint32_t base = 0; base < m; base += 2u * UZIP_ANS_SEG_SYMS) {
    uint32_t nw[2], x[2], next[2] = {0u, 0u};
    WordRing wr[2];
#pragma unroll
    for (int c = 0; c < 2; c++)
      if (!segment_open<RingPair>(p, &off, ringSmem + c * RING_PAIR_BYTES, nw[c], x[c], wr[c])) return false;
    V va[2], vb[2];
#pragma unroll
    for (int c = 0; c < 2; c++)
      if (W > 1) ld_words<V::NREM>(va[c].r, rem + (size_t)(base + c * UZIP_ANS_SEG_SYMS) * V::RW + U * V::RW * lane);
    for (uint32_t t0 = 0; t0 < T; t0 += 2 * U) {
      dec_group_vec2<W, U>(x, next, t0, T, base, tab, wr, lt, va, vb, rem, syms, out);
      dec_group_vec2<W, U>(x, next, t0 + U, T, base, tab, wr, lt, vb, va, rem, syms, out);
    }
    ring_end();  // no copy may still be landing in the rings when they are reused
    if (!segment_closed(next[0], nw[0], x[0]) || !segment_closed(next[1], nw[1], x[1])) return false;
  }
  return true;
}

// The symbol plane's ANS section decoded straight into finished elements: whole segments of full groups
// on the vector path (dec_group_vec) when the destination is 16-byte aligned and the remainders are a byte
// plane; otherwise step by step, with remainders prefetched a whole group of U steps ahead into
// alternating register buffers (no copies, which would wait on the loads), so no global load sits in the
// ANS chain.
// COH: the remainder plane was written by this kernel (see decompress_block), so it is read with plain
// loads; only whole segments of full groups may use it (the step-by-step path reads through __ldg).
// PAIRS: blocks of whole segment pairs go to decode_sym_pairs (vector path, not COH).
// COMPACT: the compact shared layout (RingCompact, dec_group_vec); no segment pairs.
// A seeded segment's last E elements of this lane (FORMAT.md "Lean sections"), rewritten with their remainders
// from the lane's seed once the segment is decoded (the segment's decode gave them whatever the plane holds
// past the segment's part: the next segment's or block's part, or past the plane the directory and this block's
// section, all inside the stream).
template <int W>
__device__ __forceinline__ void seed_tail(uint8_t* out, uint32_t len, uint32_t base, uint32_t seed) {
  constexpr uint32_t SE = Seeds<W>::E;
  __syncwarp();  // the segment's element stores, from any lane, before these reads
  __threadfence_block();
#pragma unroll
  for (uint32_t e = 0; e < SE; e++) {
    uint8_t* q = out + (size_t)(base + len - 32u * SE + 32u * e + lane_id()) * W;
    const uint32_t r = (seed >> (8u * (W - 1) * e)) & ((1u << (8u * (W - 1))) - 1u);
    store_elem<W>(q, uzip_join(uzip_symbol_of(load_elem<W>(q), W), r, W));
  }
  __syncwarp();
}
template <int W>
struct SeedTail {
  uint8_t* out;
  __device__ __forceinline__ void operator()(uint32_t len, uint32_t base, uint32_t seed) const {
    seed_tail<W>(out, len, base, seed);
  }
};

// LEAN: a LEAN stream's symbol plane (FORMAT.md "Lean sections"); with seeded (its split layout), each
// segment's remainders start (W - 1) * 32 * E bytes lower per segment before it in rem (the plane has no seed
// bytes), and a seeded segment's last 32 E elements are rewritten from its lanes' seeds (seed_tail).
template <int W, int U, bool COH = false, bool PAIRS = false, bool COMPACT = false, bool LEAN = false>
__device__ __forceinline__ bool decode_sym_elems(const uint8_t* p, uint32_t m, uint32_t* tab, uint32_t* info,
                                                 uint8_t* ringSmem, uint8_t* syms, const uint8_t* rem0, bool isConst,
                                                 uint32_t remConst, uint8_t* out, bool dst16, bool seeded = false) {
  const bool vec = dst16 && !isConst;  // the vector path (DecVec)
  static_assert(!(PAIRS && COMPACT), "segment pairs need the default layout's two 2560-byte rings");
  static_assert(!(PAIRS && LEAN), "segment pairs read the default coding's tables");
  using RS = DecRing<COMPACT>;
  constexpr uint32_t SE = Seeds<W>::E, SEG_SEED = Seeds<W>::SEG_SEED;
  if constexpr (PAIRS && !COH && DecVec<W, DEC_PAIR_U>::OK)
    if (vec && m % (2u * UZIP_ANS_SEG_SYMS) == 0) return decode_sym_pairs<W, DEC_PAIR_U>(p, m, tab, info, ringSmem, syms, rem0, out);
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  UZIP_CLK_DECL;
  const bool ok = for_each_segment<RS, LEAN>(
      p, m, tab, info, ringSmem,
      [&](uint32_t len, uint32_t base, uint32_t nw, uint32_t& x, uint32_t& next, WordRing& wr) {
        UZIP_CLK(18);  // table (first segment) and ring start
        const uint32_t T = (len + 31u) / 32u;
        // A seeded stream's plane has no seed bytes: segment sg's remainders start sg * SEG_SEED bytes lower.
        const uint8_t* const rem = LEAN && seeded ? rem0 - (base >> 14) * SEG_SEED : rem0;
        if constexpr (DecVec<W, U>::OK) {
          if (vec && len % (64u * U) == 0) {
            using V = DecVec<W, U>;
            V va, vb;
            if (W > 1) ld_words<V::NREM, COH>(va.r, rem + (size_t)base * V::RW + U * V::RW * lane);
            const uint8_t* remP = rem + (size_t)(base + 32u * U) * V::RW + U * V::RW * lane;
            uint8_t* outP = out + (size_t)(base + U * lane) * W;
            for (uint32_t t0 = 0; t0 < T; t0 += 2 * U) {
              dec_group_vec<W, U, COH, COMPACT>(x, next, t0, T, tab, wr, lt, va, vb, remP, syms, outP);
              dec_group_vec<W, U, COH, COMPACT>(x, next, t0 + U, T, tab, wr, lt, vb, va, remP, syms, outP);
            }
            return true;
          }
        }
        RemRaw<W> ra[U], rb[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
          const uint32_t k = 32u * u + lane;
          rem_load<W>(ra[u], rem, isConst, remConst, base + k, k < len);
        }
        for (uint32_t t0 = 0; t0 < T; t0 += 2 * U) {
          if (!dec_group<W, U, RS>(x, next, nw, t0, T, len, base, tab, wr, lt, ra, rb, rem, isConst, remConst, out))
            return false;
          if (t0 + U >= T) break;
          if (!dec_group<W, U, RS>(x, next, nw, t0 + U, T, len, base, tab, wr, lt, rb, ra, rem, isConst, remConst, out))
            return false;
        }
        return true;
      },
      LEAN && seeded ? Seeds<W>::BITS : 0u, SE, SeedTail<W>{out});
  UZIP_CLK(19);
  return ok;
}

// Lines of a block's start that decompress_block prefetches into the L2 (128 bytes each).
constexpr uint32_t DEC_HEAD_PF_LINES = 12u;
static_assert(DEC_HEAD_PF_LINES < 31u, "lane 31 prefetches the block's last line");
// Returns 0 or a uzip_status for block b.
// sm: the warp's table and symbols; ring: its word ring, which the symbol list aliases (sm + DEC_RING in
// the default layout; the CTA's rings in the compact one).
// LEAN: a LEAN stream's block (FORMAT.md "Lean sections"; decompress_block_lean): its tables, and in the split
// layout its seeded segments, the shorter plane and the seed section. A separate instantiation, so that the
// other streams' code is the one it was (inlined, the lean paths pushed the decode kernels into spilling).
template <int W, int U, bool PAIRS = false, bool COMPACT = false, bool LEAN = false>
__device__ __forceinline__ uint32_t decompress_block(const DecParams& P, const Hdr& h, uint8_t* sm, uint8_t* ring,
                                                     uint64_t b, uint32_t* csumAcc) {
  const uint32_t lane = lane_id();
  UZIP_CLK_DECL;
  uint32_t* tab = (uint32_t*)(sm + DEC_TAB);
  uint32_t* info = (uint32_t*)ring;
  uint8_t* syms = sm + (COMPACT ? DEC_COMPACT_SYMS : DEC_SYMS);
  using RS = DecRing<COMPACT>;
  const uint32_t rw = W > 1 ? W - 1 : 0;
  const bool split = (h.flags & UZIP_FLAG_SPLIT) != 0;
  const uint8_t* dir = P.src + h.dirOff;
  const uint64_t e = ld64u(dir + 8 * b);
  const uint64_t prevEnd = b ? uzip_dir_end(ld64u(dir + 8 * (b - 1))) : 0;
  const uint64_t end = uzip_dir_end(e);
  const uint32_t smode = uzip_dir_sym_mode(e), rmode = uzip_dir_rem_mode(e);
  if (!uzip_dir_reserved_ok(e) || end < prevEnd || (end & 15u) || (prevEnd & 15u) ||
      h.payloadOff + end > h.total)
    return UZIP_ERR_CORRUPT;
  if (smode > UZIP_MODE_ANS) return UZIP_ERR_CORRUPT;
  const uint32_t wantRem = W == 1 ? UZIP_MODE_NONE : split ? UZIP_MODE_EXTERNAL : 99u;
  if (wantRem != 99u ? rmode != wantRem : rmode > UZIP_MODE_ANS) return UZIP_ERR_CORRUPT;
  const uint32_t m = uzip_block_len(h.count, h.log2, b);
  const uint64_t start = b << h.log2;
  const uint8_t* ps = P.src + h.payloadOff + prevEnd;
  const uint64_t avail = end - prevEnd;
  // The block's first lines (ANS table, segment header, the first words the ring copies) and its last one
  // (section padding) into the L2 at once: section_size, load_ans_table and segment_open read them one
  // after another (word count after table size, padding after word count), each a DRAM miss otherwise.
  // Inside the validated payload (payloadOff + end <= total) only.
  if (lane < DEC_HEAD_PF_LINES && 128u * lane < avail)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(ps + 128u * lane));
  else if (lane == 31u && avail > 128u * DEC_HEAD_PF_LINES)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(ps + avail - 1u));
  uint32_t ss = section_size<LEAN>(ps, avail, smode, m, 1);
  if (!ss) return UZIP_ERR_CORRUPT;
  // A seeded stream's RAW or CONST symbol section is followed by the block's seed section.
  const bool seeded = LEAN && W > 1 && uzip_seeded_stream(h.dtype, h.flags);
  const uint32_t seedSec = seeded && smode != UZIP_MODE_ANS ? uzip_block_seed_bytes(m, h.dtype, h.flags) : 0u;
  if constexpr (LEAN && W > 1) {
    if (seedSec > avail - ss) return UZIP_ERR_CORRUPT;
  }
  const uint8_t* seedP = ps + ss;
  const uint8_t* pr = ps + ss + seedSec;
  uint32_t rs = 0;
  if (W > 1) {
    rs = section_size<LEAN>(pr, avail - ss - seedSec, rmode, m * rw, rw);
    if (!rs) return UZIP_ERR_CORRUPT;
    if (rs == 0xFFFFFFFFu) rs = 0;
  }
  if ((uint64_t)ss + seedSec + rs != avail) return UZIP_ERR_CORRUPT;

  uint8_t* out = P.dst + start * W;
  // Remainder of element k for the non-ANS remainder modes.
  uint32_t remConst = 0;
  if (W > 1 && rmode == UZIP_MODE_CONST) remConst = pr[0] | (rw > 1 ? (pr[1] << 8) | (pr[2] << 16) : 0u);
  const uint8_t* remSrc =
      rmode != UZIP_MODE_EXTERNAL ? pr
      : P.src + UZIP_HEADER_BYTES + (seeded ? uzip_split_plane_block_offset(b, h.dtype, h.flags, h.log2) : start * rw);
  const bool remAns = W > 1 && rmode == UZIP_MODE_ANS;
  const bool remIsConst = rmode == UZIP_MODE_CONST;
  // Symbol pass: final elements, or (remainder ANS) the unrotated symbol byte in place.
  auto emitSym = [&](uint32_t k, uint32_t s) { store_elem<W>(out + (size_t)k * W, s << (8 * (W - 1))); };
  UZIP_CLK(16);
  const bool dst16 = ((uintptr_t)P.dst & 15u) == 0;
  // Both planes ANS (some blocks of real fp16 weights; every block of data with few mantissa bits, e.g.
  // bf16 values held as fp32): the remainder plane is decoded first, as a byte plane into the top of the
  // block's own output (m * (W - 1) bytes at out + m), and the symbol pass then joins from there on the
  // vector path. Its element stores stay below the remainders it has yet to read: elements before e are
  // W * e bytes, below out + m + (W - 1) * e, where element e's remainder starts. fp32 took the generic
  // path (symbols, then each remainder byte stored alone, then a rotation pass) until session 12.
  // (DecVec OK: the vector path, whose plain loads see what this warp wrote; the step path reads via __ldg.)
  const bool remFirst = (W == 2 || W == 4) && DecVec<W, U>::OK && remAns && smode == UZIP_MODE_ANS && dst16 &&
                        m % (64u * U) == 0;
  if (remFirst) {
    uint8_t* rp = out + m;
    if (!decode_ans<RS, LEAN>(pr, m * rw, tab, info, ring, [&](uint32_t k, uint32_t byte) { rp[k] = (uint8_t)byte; }))
      return UZIP_ERR_CORRUPT;
    __syncwarp();
    __threadfence_block();
    if (!decode_sym_elems<W, U, true, false, COMPACT, LEAN>(ps, m, tab, info, ring, syms, rp, false, 0, out, true))
      return UZIP_ERR_CORRUPT;
    UZIP_CLK(20);
  } else if (smode == UZIP_MODE_ANS) {
    const bool ok = remAns ? decode_ans<RS, LEAN>(ps, m, tab, info, ring, emitSym)
                           : decode_sym_elems<W, U, false, PAIRS, COMPACT, LEAN>(ps, m, tab, info, ring, syms, remSrc,
                                                                                remIsConst, remConst, out, dst16, seeded);
    if (!ok) return UZIP_ERR_CORRUPT;
    UZIP_CLK(20);
  } else {
    const bool isConst = smode == UZIP_MODE_CONST;
    const uint32_t cs = ps[0];
    for (uint32_t k0 = lane; k0 < m; k0 += 128) {  // 4 elements per lane in flight
      uint32_t sv[4], rv[4];
#pragma unroll
      for (int u = 0; u < 4; u++) {
        const uint32_t k = k0 + 32u * u;
        sv[u] = k < m ? (isConst ? cs : (uint32_t)__ldg(ps + k)) : 0u;
        rv[u] = (!remAns && k < m) ? (LEAN && seeded ? rem_seeded<W>(remSrc, seedP, m, k)
                                                     : rem_at<W>(remSrc, remIsConst, remConst, k))
                                   : 0u;
      }
#pragma unroll
      for (int u = 0; u < 4; u++) {
        const uint32_t k = k0 + 32u * u;
        if (k < m) store_elem<W>(out + (size_t)k * W, remAns ? sv[u] << (8 * (W - 1)) : uzip_join(sv[u], rv[u], W));
      }
    }
  }
  if (remAns && !remFirst) {
    __syncwarp();
    __threadfence_block();
    auto emitRem = [&](uint32_t k, uint32_t byte) {
      uint32_t el = rw <= 1 ? k : k / (rw ? rw : 1u), j = k - el * rw;
      out[(size_t)el * W + j] = (uint8_t)byte;
    };
    if (!decode_ans<RS, LEAN>(pr, m * rw, tab, info, ring, emitRem)) return UZIP_ERR_CORRUPT;
    __syncwarp();
    __threadfence_block();
    for (uint32_t k = lane; k < m; k += 32) {
      uint32_t v = load_elem<W>(out + (size_t)k * W);
      store_elem<W>(out + (size_t)k * W, uzip_rotr1(v, W));
    }
  }
  if (h.flags & UZIP_FLAG_CHECKSUM) {
    __syncwarp();
    __threadfence_block();
    *csumAcc += warp_checksum_bytes(out, m * W, start * W / 4);
  }
  UZIP_CLK(21);
  UZIP_CLK_MAX(23);
#ifdef UZIP_STAGE_CLOCKS
  if (lane == 0) atomicAdd(&g_uzip_stage_clk[31], 1ull);
#endif
  return 0;
}

// The fused reduce of block b (uzipGpuDecompressReduce), right after the warp decoded it into dst (still in
// L2): dst = dst op other over the block's elements, with the element arithmetic of the collectives
// (coll_reduce_elem_s, the same code as their reduce kernels and CPU backend). The loop is instantiated per
// (dtype, op) so that coll_reduce_elem_s folds to the few instructions of one case: with dtype and op at
// run time its every case was inlined per element, and the fused kernel ran 1.5-4.5x slower than decode then
// reduce (bench/results/h200-2026-12-01T0334-session8, 7-fuse-bench and 8-fuse-kernel). 16-byte vectors
// when both places are 16-aligned (elements from 32-bit words by shifts), one element per lane otherwise
// and for the tail.
template <int W, int DT, int OP>
__device__ void reduce_range(uint8_t* __restrict__ out, const uint8_t* __restrict__ oth, uint32_t m, float s) {
  const uint32_t lane = lane_id();
  uint32_t done = 0;
  if ((((uintptr_t)out | (uintptr_t)oth) & 15u) == 0) {
    constexpr uint32_t kPer = 16u / W;
    const uint32_t vecs = m / kPer;
    uint4* __restrict__ po = (uint4*)out;
    const uint4* __restrict__ pt = (const uint4*)oth;
#pragma unroll 2
    for (uint32_t v = lane; v < vecs; v += 32u) {
      const uint4 x = po[v], y = pt[v];
      po[v] = make_uint4(coll_reduce_word<W, DT, OP>(x.x, y.x, s), coll_reduce_word<W, DT, OP>(x.y, y.y, s),
                         coll_reduce_word<W, DT, OP>(x.z, y.z, s), coll_reduce_word<W, DT, OP>(x.w, y.w, s));
    }
    done = vecs * kPer;
  }
  for (uint32_t i = done + lane; i < m; i += 32u)
    coll_store(out, i, W, coll_reduce_elem_s(coll_load(out, i, W), coll_load(oth, i, W), DT, OP, s));
}
// The op's class (coll_op_class) as a template argument; s carries an avg fold's scale.
template <int W, int DT>
__device__ __forceinline__ void reduce_range_op(uint8_t* out, const uint8_t* oth, uint32_t m, int op, float s) {
  switch (coll_op_class(op)) {
    case UZIP_OP_PROD: reduce_range<W, DT, UZIP_OP_PROD>(out, oth, m, s); break;
    case UZIP_OP_MAX: reduce_range<W, DT, UZIP_OP_MAX>(out, oth, m, s); break;
    case UZIP_OP_MIN: reduce_range<W, DT, UZIP_OP_MIN>(out, oth, m, s); break;
    case UZIP_OP_SUM: reduce_range<W, DT, UZIP_OP_SUM>(out, oth, m, s); break;
    default: reduce_range<W, DT, COLL_OP_PREMUL_BASE + 1>(out, oth, m, s); break;
  }
}
template <int W>
__device__ __forceinline__ void reduce_block(const DecParams& P, const Hdr& h, uint64_t b) {
  const uint32_t m = uzip_block_len(h.count, h.log2, b);
  uint8_t* out = P.dst + (b << h.log2) * W;
  const uint8_t* oth = P.other + (b << h.log2) * W;
  const int op = P.redOp;
  const float s = coll_op_scale(P.redDtype, op);
  __syncwarp();  // the block's elements were stored by every lane of the warp
  if (W == 2) {
    if (P.redDtype == COLL_BF16) reduce_range_op<W, COLL_BF16>(out, oth, m, op, s);
    else reduce_range_op<W, COLL_FP16>(out, oth, m, op, s);
  } else if (W == 4) {
    reduce_range_op<W, COLL_FP32>(out, oth, m, op, s);
  } else {
    if (P.redDtype == COLL_E4M3) reduce_range_op<W, COLL_E4M3>(out, oth, m, op, s);
    else reduce_range_op<W, COLL_E5M2>(out, oth, m, op, s);
  }
}

}  // namespace uzip_gpu
#include "gpu_pairs_decode.cuh"
namespace uzip_gpu {

// Whether a decode kernel hands out its blocks by warp index instead of by ticket: a call of one round
// (a grid sized to its blocks: grid_shape gives at least one warp a block then) under no SM budget, where
// gated warps must take none. Blocks have no order between them (the directory places each), so a CTA
// that starts late only decodes its block late. Over more rounds the tickets stay: taking every call's
// first round by index lost there (bf16 split 4 GiB 1.54 -> 1.50 TB/s,
// bench/results/h200-2026-12-04T0024-session27/4-static; our guess, not measured: warps that start in
// step stay in step, so their block starts no longer overlap other warps' coding).
__device__ __forceinline__ bool dec_by_index(const DecParams& P, const Hdr& h) {
  return !P.smLimit && h.nblocks <= (uint64_t)gridDim.x * (blockDim.x >> 5);
}

// The end of every decode kernel, per warp: its status and checksum part; the last warp to finish
// publishes the call's status (and the checksum verdict) to statusDev and the host-mapped words.
__device__ __forceinline__ void dec_finish(const DecParams& P, const Hdr& h, GpuSlot* slot, uint32_t st, uint32_t csum) {
  if (lane_id() != 0) return;
  const uint32_t warps = gridDim.x * (blockDim.x >> 5);
  if (st) {
    atomicCAS(&slot->status, 0u, st);
    fence_acq_rel_gpu();  // before end_count_add: the last warp reads the status
  }
  const unsigned long long before = end_count_add(slot, csum);
  if ((uint32_t)before == warps - 1u) {
    fence_acq_rel_gpu();
    uint32_t fin = *(volatile unsigned int*)&slot->status;
    const uint64_t bytes = h.count * h.width;
    // A block left without a decode would leave its elements as they were, undetected without a
    // checksum: every ticket below nblocks must have been taken (dec_by_index: every warp took its own).
    if (!fin && !dec_by_index(P, h) && *(volatile unsigned long long*)&slot->ticket < h.nblocks) fin = UZIP_ERR_INTERNAL;
    if (!fin && (h.flags & UZIP_FLAG_CHECKSUM) &&
        uzip_checksum_final((uint32_t)(before >> 32) + csum, bytes) != h.checksum)
      fin = UZIP_ERR_CHECKSUM;
    if (P.statusDev) *(volatile unsigned int*)P.statusDev = fin;
    *(volatile int*)&P.host->status = (int)fin;
    *(volatile unsigned long long*)&P.host->size = fin ? 0ull : bytes;
  }
}

// U: steps per unrolled group (bf16/fp16/bytes; fp32 uses U / 2); MINB: CTAs (of 4 warps) per SM that
// the registers must allow.
// PAIRS: blocks of two or more ANS segments decode two segments at a time (decode_sym_pairs).
// FUSED: the fused decode-reduce (P.other set; its own instantiation, so that the plain decoder carries
// none of its registers). LANES: the decoder of lane streams (lanes_decode_block, lanes_dec_warp_bytes(RING)
// of shared memory per warp; uzipGpuDecompressLanes; RING: words through a cp.async ring), which refuses other streams (INVALID_ARG) as the
// others refuse lane streams (UNSUPPORTED): dispatching lane blocks from the interleaved decoder cost it
// ~5% on every other stream (bf16 split 1 GiB 1.255 -> 1.195 TB/s,
// bench/results/h200-2026-12-02T0540-session14/9-final-refactor).
// COMPACT: the compact shared layout (DEC_COMPACT_WARP_BYTES a warp: 24 warps per SM at MINB = 6).

// The block loop of decompress_kernel: blocks by ticket (or by warp index), each decoded (and reduced, FUSED)
// until one fails or none is left; returns the first failure.
template <int U, bool PAIRS, bool FUSED, int CODING, bool COMPACT, bool RING = true>
__device__ __forceinline__ uint32_t decode_blocks(const DecParams& P, const Hdr& h, uint8_t* sm, uint8_t* ring,
                                                  GpuSlot* slot, bool gated, bool byIndex, uint32_t* csum) {
  constexpr bool LANES = CODING == DEC_CODING_LANES;
  constexpr bool LEAN = CODING == DEC_CODING_LEAN;
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  uint32_t st = 0;
  bool more = true;
  while (more && gate_open(gated, &slot->active)) {
    unsigned long long b = (unsigned long long)blockIdx.x * (blockDim.x >> 5) + wib;
    more = !byIndex;
    if (more) {
      if (lane == 0) {
        b = atomicAdd(&slot->ticket, 1ull);
        // The one warp that took the ticket at nblocks orders it before its end_count_add: the last warp
        // reads the ticket counter (dec_finish). Any warp that ends by ticket took one at or past it.
        if (b == h.nblocks) fence_acq_rel_gpu();
      }
      b = __shfl_sync(FULL_MASK, b, 0);
    }
    if (b >= h.nblocks) break;
    if constexpr (LANES) {
      st = h.width == 1 ? lanes_decode_block<1, RING>(P, h, sm, b, csum)
           : h.width == 2 ? lanes_decode_block<2, RING>(P, h, sm, b, csum)
                          : lanes_decode_block<4, RING>(P, h, sm, b, csum);
    } else if constexpr (CODING == DEC_CODING_PAIRS) {
      st = h.width == 2 ? pairs_decode_block<2>(P, h, sm, b, csum) : pairs_decode_block<4>(P, h, sm, b, csum);
    } else {
      switch (h.width) {
        case 1:
          st = decompress_block<1, U, PAIRS, COMPACT, LEAN>(P, h, sm, ring, b, csum);
          if (FUSED && !st) reduce_block<1>(P, h, b);
          break;
        case 2:
          st = decompress_block<2, U, PAIRS, COMPACT, LEAN>(P, h, sm, ring, b, csum);
          if (FUSED && !st) reduce_block<2>(P, h, b);
          break;
        default:
          st = decompress_block<4, (U > 2 ? U / 2 : 1), PAIRS, COMPACT, LEAN>(P, h, sm, ring, b, csum);
          if (FUSED && !st) reduce_block<4>(P, h, b);
          break;
      }
    }
    if (st) break;
  }
  return st;
}

// A LEAN stream given to a byte-coding kernel: the library's default decode (uzipGpuDecompress) cannot tell a
// lean stream from its size, and a lean stream is what the default coding writes for small split tensors. Its
// blocks are decoded by the lean path, out of line at the kernel's top level, so that the byte path keeps its
// registers and code (inlined per block, the lean paths pushed these kernels into spilling: session 38). ptxas
// (sm_90, session 42): the byte kernels' spill stores fell with the block loop in decode_blocks (default kernel
// 148 -> 96 bytes, compact 192 -> 140, wide 64 -> 44), the one-round and fused ones went from none to 4 and 16
// bytes beside a 32-byte call frame, and this path spills ~1 KB in kernels of 80-96 registers and ~60 bytes in
// the wide one's 128 (large lean streams decode faster through their own entry). H100, against main in one call
// (bench/results/h100-2026-12-06-session42): default-coding decodes from 256 MiB level or +1-1.5%, byte streams
// in the one-round kernel (16-64 MiB) 1-2.4% slower. fp32's wide kernel (not measured then) decoded 1.6-2.7%
// slower with it at 1 and 4 GiB (session 50), so large fp32 calls take a twin without it (TAKES_LEAN, below).
// MINB: the calling kernel's, so that each kernel has its own copy, compiled under its own register budget.
template <int U, int MINB, bool FUSED, bool COMPACT>
__device__ __noinline__ uint32_t decode_blocks_lean_out_of_line(const DecParams P, const Hdr h, uint8_t* sm,
                                                                uint8_t* ring, GpuSlot* slot, bool gated,
                                                                bool byIndex, uint32_t* csum) {
  return decode_blocks<8, false, FUSED, DEC_CODING_LEAN, COMPACT>(P, h, sm, ring, slot, gated, byIndex, csum);
}

// CODING: the symbol coding the kernel decodes (DEC_CODING_*), each in its own kernel: DEC_CODING_LANES is
// the LANES kernel above, DEC_CODING_PAIRS the pair decoder (pairs_decode_block, PAIRS_DEC_WARP_BYTES a warp;
// uzipGpuDecompressPairs), DEC_CODING_LEAN the decoder of lean sections (decompress_block<..., LEAN>;
// uzipGpuDecompressLean: a kernel of its own, so that the others compile as before); each refuses the others'
// streams (INVALID_ARG), and the byte-coding kernels refuse lane and pair streams (UNSUPPORTED) and decode lean
// ones through decode_blocks_lean_out_of_line (session 42: the library's default coding of small split bf16 and
// fp32 calls is lean, and a decode cannot tell a stream's coding before its kernel reads the header).
// TAKES_LEAN false (a byte-coding kernel without that out-of-line path, paired with the lean kernel as in
// uzipGpuDecompressEither, its DecParams::skipMask leaving lean streams): refuses a lean stream it is given
// (UNSUPPORTED), as the other codings' kernels do.
template <int U, int MINB, bool PAIRS = false, bool FUSED = false, int CODING = DEC_CODING_BYTES, bool RING = true,
          bool COMPACT = false, bool TAKES_LEAN = true>
__global__ void __launch_bounds__(128, MINB) decompress_kernel(const DecParams P) {
  constexpr bool LANES = CODING == DEC_CODING_LANES;
  constexpr bool LEAN = CODING == DEC_CODING_LEAN;  // lean sections' own kernel (uzipGpuDecompressLean)
  static_assert(!(LEAN && PAIRS), "the lean kernels read no segment pairs");
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  // The compact layout: the CTA's four rings first, then each warp's area (DEC_COMPACT_AREA_BYTES).
  uint8_t* sm = COMPACT ? smem + 4u * DEC_COMPACT_RING_BYTES + (size_t)wib * DEC_COMPACT_AREA_BYTES
                        : smem + (size_t)wib * (LANES                         ? lanes_dec_warp_bytes(RING)
                                                : CODING == DEC_CODING_PAIRS ? PAIRS_DEC_WARP_BYTES
                                                                             : DEC_WARP_BYTES);
  uint8_t* ring = COMPACT ? smem + wib * DEC_COMPACT_RING_BYTES : sm + DEC_RING;
  GpuSlot* slot = &P.slots[P.epoch & 1u];
  // Launched first by uzipGpuDecompressEither, the lean kernel lets the byte kernel start at once (programmatic
  // dependent launch): neither reads what the other writes, and one of them leaves at its header.
  if constexpr (LEAN) asm volatile("griddepcontrol.launch_dependents;");
  clean_next_slot(P.slots, P.epoch);
  Hdr h;
  UZIP_CLK_DECL;
  read_header_dev(P, h);
  UZIP_CLK(22);
  uint32_t csum = 0, st = h.status;
  if (P.skipMask && ((P.skipMask >> (st ? 4 : dec_coding(h.flags))) & 1u)) return;
  // A byte-coding kernel also takes a LEAN stream (out of line, below); the other kernels only their own coding.
  const bool leanInBytes = CODING == DEC_CODING_BYTES && TAKES_LEAN && dec_coding(h.flags) == DEC_CODING_LEAN;
  if (!st && dec_coding(h.flags) != CODING && !leanInBytes)
    st = CODING != DEC_CODING_BYTES ? UZIP_ERR_INVALID_ARG : UZIP_ERR_UNSUPPORTED;
  // dec_vec_step_wrap forms ring addresses by OR: a misaligned base (never seen) would decode wrong words.
  if (COMPACT && ((uint32_t)__cvta_generic_to_shared(smem) & (DEC_COMPACT_RING_BYTES - 1u))) st = UZIP_ERR_INTERNAL;
  // Blocks are handed out by a ticket counter; warps of CTAs on the SMs reserved for others (sm_gated) take
  // some only while no CTA on a permitted SM has started (gate_open). A call of one round takes its blocks
  // by warp index (dec_by_index): no atomics, whose thousands at a launch queue at one L2 address (16 MiB
  // decode: bf16 default layout 0.420 -> 0.462 TB/s, fp32 0.420 -> 0.458, fp8 0.263 -> 0.280, bf16 split
  // +1-2%; bench/results/h200-2026-12-04T0024-session27/5-static-oneround). Taking a CTA's first tickets
  // in one atomic over more rounds was level (7-dec-batch, docs/experiments/dec-first-tickets-by-cta.diff).
  const bool gated = sm_gated(P.smLimit);
  gate_announce(P.smLimit, gated, &slot->active);
  const bool byIndex = dec_by_index(P, h);
  if constexpr (CODING == DEC_CODING_BYTES && TAKES_LEAN) {
    if (!st && leanInBytes) {
      st = decode_blocks_lean_out_of_line<U, MINB, FUSED, COMPACT>(P, h, sm, ring, slot, gated, byIndex, &csum);
      dec_finish(P, h, slot, st, csum);
      return;
    }
  }
  if (!st) st = decode_blocks<U, PAIRS, FUSED, CODING, COMPACT, RING>(P, h, sm, ring, slot, gated, byIndex, &csum);
  dec_finish(P, h, slot, st, csum);
}

}  // namespace uzip_gpu
