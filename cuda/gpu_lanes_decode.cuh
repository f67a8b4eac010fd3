// GPU decoder of lane-stream blocks (FORMAT.md "Lane streams", lanes_format.h), called per block by
// decompress_kernel<..., LANES = true> (gpu_decode.cuh). One warp per block: it validates the section
// as the CPU decoder does (cpu_lanes.cc), builds the slot table in shared memory, and then every lane
// decodes its own stream backwards (the encoder ran forwards), reading its words from the end of its
// stream through a cp.async ring in shared memory (RING; or from global memory two words ahead). A lane
// decodes a chunk's symbols into registers, joins them with the chunk's remainders from the split plane
// and stores 16 bytes. Every read stays inside the section (a lane that consumes more words than its count
// is clamped to its first word at each chunk and fails the final check); every write inside the block's
// output.
#pragma once

#include "gpu_lanes_common.cuh"

namespace uzip_gpu {

// Shared memory of a warp of the lanes decoder: the slot table. (Staging a block's words in shared memory
// too, 16 KB more, cut the kernel to 8 warps per SM: bf16 1 GiB 0.80 -> 0.68 TB/s,
// bench/results/h200-2026-12-02T0540-session14/5-flush.)
constexpr uint32_t LANES_DEC_WARP_BYTES = 4u * UZIP_ANS_M;
// With RING (lanes_decode_block), a ring of 32 words per lane follows the table: lane l's at 72 * l bytes
// (a stride of 18 banks: lanes at the same slot conflict at most two ways; 8-byte aligned for cp.async).
constexpr uint32_t LANES_DEC_RING_STRIDE = 72u;
__host__ __device__ constexpr uint32_t lanes_dec_warp_bytes(bool ring) {
  return LANES_DEC_WARP_BYTES + (ring ? UZIP_LANES_N * LANES_DEC_RING_STRIDE : 0u);
}

// One decoder step: slot -> entry (slot - cum) | symbol << 11 | f << 20 from the slot table at shared
// address dtab, state update, and when the state fell under L the next word shifted in. A lane reads its
// words from global memory downwards from p, two words ahead of need (w0, w1): with one word ahead most
// renormalizations waited for a load still in flight, at ~10x the cost of the rest of a step (ncu,
// bench/results/h200-2026-12-02T0540-session14/4-profile). The table load and the renormalization are
// PTX: in C++ the renormalization was a divergent branch per step. Returns the symbol.
// The step's first half, shared by both word sources: the slot's entry and the state update; returns the
// entry (symbol in bits 11..18).
__device__ __forceinline__ uint32_t lanes_dec_slot(uint32_t& x, uint32_t dtab) {
  uint32_t e;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(e) : "r"(dtab + ((x & (UZIP_ANS_M - 1u)) << 2)));
  x = (e >> 20) * (x >> UZIP_ANS_PROB_BITS) + (e & (UZIP_ANS_M - 1u));
  return e;
}
__device__ __forceinline__ uint32_t lanes_dec_step(uint32_t& x, uint64_t& p, uint32_t& w0, uint32_t& w1, uint32_t dtab) {
  const uint32_t e = lanes_dec_slot(x, dtab);
  asm volatile(
      "{\n\t.reg .pred q;\n\tsetp.lt.u32 q, %0, 32768;\n\t@q prmt.b32 %0, %2, %0, 0x5410;\n\t"
      "@q mov.b32 %2, %3;\n\t@q ld.global.nc.u16 %3, [%1+-6];\n\t@q add.s64 %1, %1, -2;\n\t}"
      : "+r"(x), "+l"(p), "+r"(w0), "+r"(w1));
  return (e >> 11) & 0xFFu;
}

// A lane's words through a ring in shared memory (RING): a ld.global into registers two words ahead made
// every renormalization wait for the load of the one before (ncu,
// bench/results/h200-2026-12-02T0540-session14/7-profile-final: the register moves of w1 into w0 held
// over half the stall samples). Words are numbered from g, the 8-byte aligned address at or below the
// lane's first word; word i lives in ring slot i % 32. cp.async copies units of 4 words (8 bytes) ahead
// of need, one commit group per chunk; lanes_ring_refill keeps the units down to word a - 24 issued, and
// waits for the groups of two chunks before (a chunk of two-byte types consumes at most 8 words, so those
// hold every word the coming chunk can read; a unit never lands on a slot whose word is still ahead).
struct LanesRing {
  uint32_t rb;  // this lane's ring (shared address)
  int32_t a;    // the next word to read (counts down; below the lane's first word only in a corrupt stream)
  int32_t f;    // the lowest unit copied so far
  uint64_t g;   // global address of word 0
};
template <int UNITS>
__device__ __forceinline__ void lanes_ring_issue(LanesRing& R) {
  const int32_t t = R.a >= 24 ? (R.a - 24) >> 2 : 0;
#pragma unroll
  for (int32_t i = 0; i < UNITS; i++)
    if (R.f > t) {
      R.f--;
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(R.rb + 8u * ((uint32_t)R.f & 7u)),
                   "l"(R.g + 8u * (uint64_t)R.f)
                   : "memory");
    }
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// Before each chunk: at most two units more (the 8 words a chunk consumes), then the wait.
__device__ __forceinline__ void lanes_ring_refill(LanesRing& R) {
  lanes_ring_issue<2>(R);
  asm volatile("cp.async.wait_group 2;\n" ::: "memory");
}
// The decoder step with the ring: the word comes from shared memory (masked index: always inside the ring).
__device__ __forceinline__ uint32_t lanes_dec_step_ring(uint32_t& x, LanesRing& R, uint32_t dtab) {
  const uint32_t e = lanes_dec_slot(x, dtab);
  asm volatile(
      "{\n\t.reg .pred q;\n\t.reg .b32 s, w;\n\tsetp.lt.u32 q, %0, 32768;\n\t"
      "@q and.b32 s, %1, 31;\n\t@q shl.b32 s, s, 1;\n\t@q add.u32 s, s, %2;\n\t@q ld.shared.u16 w, [s];\n\t"
      "@q prmt.b32 %0, w, %0, 0x5410;\n\t@q add.s32 %1, %1, -1;\n\t}"
      : "+r"(x), "+r"(R.a)
      : "r"(R.rb));
  return (e >> 11) & 0xFFu;
}

// Remainder of element i (block-local) from the split plane at rem.
template <int W>
__device__ __forceinline__ uint32_t lanes_rem_at(const uint8_t* rem, uint32_t i) {
  if (W == 2) return __ldg(rem + i);
  if (W == 4) return __ldg(rem + 3u * i) | ((uint32_t)__ldg(rem + 3u * i + 1) << 8) | ((uint32_t)__ldg(rem + 3u * i + 2) << 16);
  return 0u;
}

// A whole chunk's remainders from the split plane (bf16/fp16: 8 bytes in a, b; fp32: 12 bytes in a, b, c).
struct LanesRem {
  uint32_t a, b, c;
};
template <int W>
__device__ __forceinline__ LanesRem lanes_load_rem(const uint8_t* rem, uint32_t j) {
  if (W == 2) {
    const uint2 r = __ldg((const uint2*)(rem + 8u * j));
    return {r.x, r.y, 0u};
  }
  if (W == 4) {
    const uint32_t* r = (const uint32_t*)(rem + 12u * j);  // 4-byte aligned: 12 bytes per chunk
    return {__ldg(r), __ldg(r + 1), __ldg(r + 2)};
  }
  return {0u, 0u, 0u};
}

// Decodes chunk j of the lane (symbols valid-1 .. 0) and writes its elements. FAST: a whole chunk of a
// 16-byte aligned output, joined with its prefetched remainders rc and stored as one vector; otherwise
// element by element.
template <int W, bool FAST, typename Step>
__device__ __forceinline__ void lanes_dec_chunk(uint32_t j, uint32_t valid, uint32_t& x, Step&& step,
                                                const uint8_t* rem, uint8_t* out, const LanesRem& rc) {
  constexpr uint32_t C = 16u / W;
  uint32_t s[C];
#pragma unroll
  for (int e = (int)C - 1; e >= 0; e--)
    if (FAST || (uint32_t)e < valid) s[e] = step(x);
  const uint32_t i0 = j * C;
  if (FAST) {
    uint32_t w[4];
    if (W == 1) {
#pragma unroll
      for (int i = 0; i < 4; i++) w[i] = s[4 * i] | (s[4 * i + 1] << 8) | (s[4 * i + 2] << 16) | (s[4 * i + 3] << 24);
    } else if (W == 2) {
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const uint32_t rr = (i < 2 ? rc.a : rc.b) >> (16 * (i & 1));
        const uint32_t v = (s[2 * i] << 8) | (rr & 0xFFu) | (s[2 * i + 1] << 24) | ((rr & 0xFF00u) << 8);
        w[i] = rotr1_halves(v);
      }
    } else {
      const uint32_t r0 = rc.a, r1 = rc.b, r2 = rc.c;
      const uint32_t rv[4] = {r0 & 0xFFFFFFu, (r0 >> 24) | ((r1 & 0xFFFFu) << 8), (r1 >> 16) | ((r2 & 0xFFu) << 16),
                              r2 >> 8};
#pragma unroll
      for (int i = 0; i < 4; i++) w[i] = uzip_rotr1((s[i] << 24) | rv[i], 4);
    }
    *(uint4*)(out + (size_t)i0 * W) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
#pragma unroll
    for (uint32_t e = 0; e < C; e++)
      if (e < valid) {
        const uint32_t i = i0 + e;
        store_elem<W>(out + (size_t)i * W, W == 1 ? s[e] : uzip_join(s[e], lanes_rem_at<W>(rem, i), W));
      }
  }
}

// Block b of a split-layout stream (lane and pair streams): its directory entry checked (reserved bits, ends
// 16-aligned, non-decreasing, inside the payload, the remainder mode EXTERNAL, NONE for one-byte types) and
// where its section, remainders and output lie. False when the entry is corrupt.
struct SplitBlock {
  uint32_t smode, m;
  uint64_t start, avail;  // first element; section bytes
  const uint8_t* ps;      // the symbol section
  const uint8_t* rem;     // the block's remainders in the split plane
  uint8_t* out;
};
template <int W>
__device__ __forceinline__ bool split_block_open(const DecParams& P, const Hdr& h, uint64_t b, SplitBlock& k) {
  const uint8_t* dir = P.src + h.dirOff;
  const uint64_t e = ld64u(dir + 8 * b);
  const uint64_t prevEnd = b ? uzip_dir_end(ld64u(dir + 8 * (b - 1))) : 0;
  const uint64_t end = uzip_dir_end(e);
  k.smode = uzip_dir_sym_mode(e);
  if (!uzip_dir_reserved_ok(e) || end < prevEnd || (end & 15u) || (prevEnd & 15u) || h.payloadOff + end > h.total)
    return false;
  if (uzip_dir_rem_mode(e) != (W == 1 ? UZIP_MODE_NONE : UZIP_MODE_EXTERNAL)) return false;
  k.m = uzip_block_len(h.count, h.log2, b);
  k.start = b << h.log2;
  k.ps = P.src + h.payloadOff + prevEnd;
  k.avail = end - prevEnd;
  k.out = P.dst + k.start * W;
  k.rem = P.src + UZIP_HEADER_BYTES + k.start * (W > 1 ? W - 1 : 0);
  return true;
}
// The checksum terms of a decoded block's output (a stream with the checksum flag).
template <int W>
__device__ __forceinline__ void split_block_checksum(const Hdr& h, const SplitBlock& k, uint32_t* csumAcc) {
  if (h.flags & UZIP_FLAG_CHECKSUM) {
    __syncwarp();
    __threadfence_block();
    *csumAcc += warp_checksum_bytes(k.out, k.m * W, k.start * W / 4);
  }
}

// A RAW or CONST symbol section (isConst) at ps (avail bytes, zero-padded to 16) of a split-layout block of
// m elements: joined with the remainders at rem into out. False when the section's size or padding is wrong.
// (The lane and the pair decoders' plain blocks.)
template <int W>
__device__ __forceinline__ bool split_plain_block(bool isConst, const uint8_t* ps, uint64_t avail, uint32_t m,
                                                  const uint8_t* rem, uint8_t* out) {
  const uint32_t lane = lane_id();
  const uint32_t used = isConst ? 1u : m;
  if (avail != uzip_pad16(used)) return false;
  bool bad = lane < avail - used && ps[used + lane] != 0;
  if (__any_sync(FULL_MASK, bad)) return false;
  const uint32_t cs = ps[0];
  for (uint32_t i = lane; i < m; i += 32u) {
    const uint32_t s = isConst ? cs : (uint32_t)__ldg(ps + i);
    store_elem<W>(out + (size_t)i * W, W == 1 ? s : uzip_join(s, lanes_rem_at<W>(rem, i), W));
  }
  return true;
}

// Decodes block b of a LANES stream into dst; returns 0 or a status. sm: LANES_DEC_WARP_BYTES of shared
// memory for the slot table.
template <int W, bool RING>
__device__ uint32_t lanes_decode_block(const DecParams& P, const Hdr& h, uint8_t* sm, uint64_t b, uint32_t* csumAcc) {
  constexpr uint32_t C = 16u / W;
  const uint32_t lane = lane_id();
  SplitBlock k;
  if (!split_block_open<W>(P, h, b, k)) return UZIP_ERR_CORRUPT;
  const auto [smode, m, start, avail, ps, rem, out] = k;
  const bool dst16 = ((uintptr_t)P.dst & 15u) == 0;

  if (smode == UZIP_MODE_RAW || smode == UZIP_MODE_CONST) {
    if (!split_plain_block<W>(smode == UZIP_MODE_CONST, ps, avail, m, rem, out)) return UZIP_ERR_CORRUPT;
  } else if (smode == UZIP_MODE_LANES) {
    // Table: lo, hi, 0, freq[hi - lo + 1], padding.
    if (avail < 4) return UZIP_ERR_CORRUPT;
    const uint32_t lo = ps[0], hi = ps[1];
    if (lo >= hi || *(const uint16_t*)(ps + 2) != 0) return UZIP_ERR_CORRUPT;
    const uint32_t K = hi - lo + 1u, T = uzip_lanes_table_bytes(lo, hi);
    if (avail < (uint64_t)T + UZIP_LANES_FIXED_BYTES) return UZIP_ERR_CORRUPT;
    uint32_t f[8], cum[8], carry = 0;
    bool bad = (K & 1u) && lane == 0 && *(const uint16_t*)(ps + 4u + 2u * K) != 0;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) {
      const uint32_t idx = lane + 32u * i;
      f[i] = idx < K ? (uint32_t)*(const uint16_t*)(ps + 4u + 2u * idx) : 0u;
      bad |= idx < K && (f[i] == 0 || f[i] >= UZIP_ANS_M);
      cum[i] = carry + warp_excl_scan(f[i]);
      carry += warp_sum_u32(f[i]);
    }
    const uint8_t* states = ps + T;
    const uint32_t x0 = *(const uint32_t*)(states + 4u * lane);
    const uint32_t nw = *(const uint16_t*)(states + 4u * UZIP_LANES_N + 2u * lane);
    bad |= x0 < UZIP_LANES_L || x0 >= UZIP_ANS_X_END || nw > uzip_lanes_word_cap(h.log2);
    const uint32_t total = warp_sum_u32(nw), prefix = warp_excl_scan(nw);
    const uint64_t used = (uint64_t)T + UZIP_LANES_FIXED_BYTES + 2u * total;
    bad |= carry != UZIP_ANS_M || uzip_pad16(used) != avail || used >= m;
    if (__any_sync(FULL_MASK, bad)) return UZIP_ERR_CORRUPT;
    bad = lane < avail - used && ps[used + lane] != 0;
    if (__any_sync(FULL_MASK, bad)) return UZIP_ERR_CORRUPT;
    // Slot table: for each symbol (row i, lane src), the warp fills its f slots.
    uint32_t* dtab = (uint32_t*)sm;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) {
      if (32u * i >= K) break;
      for (uint32_t src = 0; src < 32u && 32u * i + src < K; src++) {
        const uint32_t fs = __shfl_sync(FULL_MASK, f[i], src), cs = __shfl_sync(FULL_MASK, cum[i], src);
        const uint32_t sym = lo + 32u * i + src;
        for (uint32_t t = lane; t < fs; t += 32u) dtab[cs + t] = t | (sym << 11) | (fs << 20);
      }
    }
    // Each lane's stream, from its end: words [prefix, prefix + nw) after the states and counts. Global reads
    // reach at most 2 + 16 + 2 words below a lane's first (two ahead, one chunk past it before the clamp
    // below), inside the section (the states and counts, 192 bytes, lie below every lane's words). The
    // ring's copies are 8-byte units between the 8-byte boundary at or below the lane's first word and the
    // one at or above its last: inside the section too (it starts and ends on 16-byte boundaries).
    const uint32_t dtabS = (uint32_t)__cvta_generic_to_shared(dtab);
    const uint64_t first = (uint64_t)(uintptr_t)(states + UZIP_LANES_FIXED_BYTES + 2u * prefix);
    uint64_t p = first + 2u * nw;
    uint32_t x = x0;
    // RING, two-byte types: words through the shared ring; otherwise from global memory two ahead
    // (lanes_dec_step). A byte type's chunk of 16 symbols could read past the ring's margin; four-byte
    // types decoded 15% slower with the ring at 1 GiB (their remainders then come one chunk ahead instead
    // of four: bench/results/h200-2026-12-02T0750-session15/6-dec-ring).
    constexpr bool R_ON = RING && W == 2;
    LanesRing R;
    uint32_t w0 = 0, w1 = 0;
    const int32_t off0 = (int32_t)((first & 7u) >> 1);
    if (R_ON) {
      R.rb = (uint32_t)__cvta_generic_to_shared(sm + LANES_DEC_WARP_BYTES + LANES_DEC_RING_STRIDE * lane);
      R.g = first & ~(uint64_t)7;
      R.a = off0 + (int32_t)nw - 1;
      R.f = (R.a >> 2) + 1;
      lanes_ring_issue<9>(R);  // the first 24 words and more: every unit down to a - 24
      asm volatile("cp.async.wait_all;\n" ::: "memory");
    } else {
      w0 = __ldg((const uint16_t*)(uintptr_t)(p - 2));
      w1 = __ldg((const uint16_t*)(uintptr_t)(p - 4));
    }
    __syncwarp();
    asm volatile("" ::: "memory");  // the table's stores before its loads in PTX
    auto step = [&](uint32_t& xx) {
      return R_ON ? lanes_dec_step_ring(xx, R, dtabS) : lanes_dec_step(xx, p, w0, w1, dtabS);
    };
    // After each chunk: a lane that read more words than its count is corrupt; without the ring its
    // pointer is clamped to its first word (the reads stay inside the section).
    bool over = false;
    auto after_chunk = [&]() {
      if (R_ON) {
        over |= R.a < off0 - 1;
        if (R.a < off0 - 1) R.a = off0 - 1;
      } else {
        over |= p < first;
        if (p < first) p = first;
      }
    };
    uint32_t full;
    bool tail;
    lanes_lane_chunks<W>(m, lane, &full, &tail);
    const LanesRem none = {0u, 0u, 0u};
    if (tail) {
      const uint32_t j = m / C;
      if (R_ON) lanes_ring_refill(R);
      lanes_dec_chunk<W, false>(j, m - j * C, x, step, rem, out, none);
      after_chunk();
    }
    if (dst16) {
      // Whole chunks from the last down, each chunk's remainders loaded D chunks ahead (with the ring, one:
      // four made ptxas spill 180 bytes at 168 registers).
      constexpr uint32_t D = R_ON ? 1 : 4;
      LanesRem rb[D];
#pragma unroll
      for (uint32_t i = 0; i < D; i++) rb[i] = i < full ? lanes_load_rem<W>(rem, 32u * (full - 1u - i) + lane) : none;
      for (uint32_t n0 = 0; n0 < full; n0 += D) {
#pragma unroll
        for (uint32_t i = 0; i < D; i++) {
          const uint32_t nth = n0 + i;
          if (nth < full) {
            if (R_ON) lanes_ring_refill(R);
            lanes_dec_chunk<W, true>(32u * (full - 1u - nth) + lane, C, x, step, rem, out, rb[i]);
            after_chunk();
            if (nth + D < full) rb[i] = lanes_load_rem<W>(rem, 32u * (full - 1u - nth - D) + lane);
          }
        }
      }
    } else {
      for (uint32_t r = full; r-- > 0;) {
        if (R_ON) lanes_ring_refill(R);
        lanes_dec_chunk<W, false>(32u * r + lane, C, x, step, rem, out, none);
        after_chunk();
      }
    }
    if (R_ON) {
      asm volatile("cp.async.wait_all;\n" ::: "memory");  // no copy may land in the ring of the next block
      p = first + 2u * (uint64_t)(R.a + 1 - off0);          // where the lane's reading ended
    }
    __syncwarp();
    if (__any_sync(FULL_MASK, over || p != first || x != UZIP_LANES_L)) return UZIP_ERR_CORRUPT;
  } else {
    return UZIP_ERR_CORRUPT;
  }
  split_block_checksum<W>(h, k, csumAcc);
  return 0;
}

}  // namespace uzip_gpu
