// The interleaved-chain ANS kernels' cores (blocks of 2..4 segments per plane, one table): a warp runs
// the segments' independent chains side by side, so each lane has up to 4 steps in flight instead of one
// dependent chain. Kept apart from gpu_encode.cuh / gpu_decode.cuh and free of shared-memory or grid
// specifics so tests/native/ilp_host_test.cc can run this very source on the CPU (32 threads as lanes,
// emulated warp intrinsics) against the CPU codec.
#pragma once

#include "gpu_warp.cuh"

// Chains per warp of the interleaved encoder, and its global word stage per warp (one region of a
// segment's worst case, 16384 words, per chain).
#define ENC_ILP_NS 4u
#define ENC_SCRATCH_WORDS (ENC_ILP_NS * UZIP_ANS_SEG_SYMS) /* u16 per warp */
// Steps per group: the encoder loads symbols two groups and table entries one group ahead; the decoder
// loads remainders one group ahead. Longer groups hide more load latency at the cost of registers.
#ifndef UZIP_ILP_ENC_U
#define UZIP_ILP_ENC_U 4
#endif
#ifndef UZIP_ILP_DEC_U
#define UZIP_ILP_DEC_U 4 /* one- and two-byte elements (8 spills under the 168-register cap of 12 warps/SM) */
#endif
#ifndef UZIP_ILP_DEC_U4
#define UZIP_ILP_DEC_U4 2 /* fp32 (3 remainder bytes per element) */
#endif
// Distance, in words, at which the decoder prefetches a segment's words into L1 (2 lines ahead), and in
// steps, at which it prefetches remainders into L2 (a block's whole remainder plane, prefetched at once
// by every resident warp, would not fit in L2).
#define UZIP_ILP_WORD_PREFETCH 96u
#define UZIP_ILP_REM_AHEAD 32u

// Non-blocking cache prefetches (no-ops in the host build of tests/native/ilp_host_test.cc).
__device__ __forceinline__ void prefetch_l1(const void* p) {
#ifdef __CUDA_ARCH__
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}
__device__ __forceinline__ void prefetch_l2(const void* p) {
#ifdef __CUDA_ARCH__
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

namespace uzip_gpu {

// The byte of a plane: symbol of element k, or remainder byte k (element k / rw, byte k % rw).
template <int W, bool REM>
__device__ __forceinline__ uint32_t plane_byte(const uint8_t* blk, uint32_t k) {
  if (!REM) {
    uint32_t v = W == 1 ? (uint32_t)__ldg(blk + k)
               : W == 2 ? (uint32_t)__ldg((const uint16_t*)blk + k) : (uint32_t)__ldg((const uint32_t*)blk + k);
    // uzip_symbol_of(v, W) without the rotation: the symbol is bits 7..14 (W 2), 23..30 (W 4) of v.
    return W == 1 ? v : W == 2 ? (v >> 7) & 0xFFu : (v >> 23) & 0xFFu;
  }
  constexpr uint32_t rw = W > 1 ? W - 1 : 1;
  uint32_t e = rw == 1 ? k : k / rw, j = k - e * rw;
  uint32_t v = W == 2 ? (uint32_t)__ldg((const uint16_t*)blk + e) : (uint32_t)__ldg((const uint32_t*)blk + e);
  return (uzip_remainder_of(v, W) >> (8 * j)) & 0xFFu;
}

template <int W, bool REM>
__device__ __forceinline__ uint32_t enc_symbol(const uint8_t* blk, uint32_t base, uint32_t len, int32_t t,
                                               uint32_t lane, bool& valid) {
  const uint32_t k = 32u * (uint32_t)t + lane;  // t < 0 (>= -3 groups of steps): k wraps far past len
  valid = k < len;
  return valid ? plane_byte<W, REM>(blk, base + k) : 0u;
}

// The symbol plane of a block of 2..4 segments (m > 16384 symbols, one table): the segments' chains run
// interleaved, NS independent steps per lane and step, so their latencies overlap. Segment s codes plane
// symbols [16384 s, 16384 s + len_s) exactly as encode_segment would, its words placed downward from
// the top of region s of the word stage (16384 words: a segment emits at most one word per symbol, so
// a region never overflows). nws[s], soff[s] (stage index of its first word), states[32 s + lane]
// receive each segment's result. Chains of absent segments (s >= nseg) stay idle (valid = false).
template <int W>
__device__ __forceinline__ void encode_segments_ilp(const uint8_t* __restrict__ blk, uint32_t m,
                                                    const uint4* __restrict__ tab, uint16_t* __restrict__ stage,
                                                    uint32_t* __restrict__ nws, uint32_t* __restrict__ soff,
                                                    uint32_t* __restrict__ states) {
  constexpr int NS = (int)ENC_ILP_NS, U = UZIP_ILP_ENC_U;
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  uint32_t len[NS], x[NS];
  int32_t p[NS];
#pragma unroll
  for (int s = 0; s < NS; s++) {
    const uint32_t b = (uint32_t)s * UZIP_ANS_SEG_SYMS;
    len[s] = m > b ? min(m - b, UZIP_ANS_SEG_SYMS) : 0u;
    x[s] = UZIP_ANS_L;
    p[s] = (int32_t)(b + UZIP_ANS_SEG_SYMS);
  }
  const int32_t T = (int32_t)((len[0] + 31u) / 32u);  // segment 0 is the longest
  // valid bits: bit u * NS + s. Symbols two groups ahead, table entries one group ahead.
  uint4 cur[U][NS];
  uint32_t sy1[U][NS], curValid = 0, valid1 = 0;
#pragma unroll
  for (int u = 0; u < U; u++)
#pragma unroll
    for (int s = 0; s < NS; s++) {
      bool v;
      const uint32_t base = (uint32_t)s * UZIP_ANS_SEG_SYMS;
      uint32_t sy = enc_symbol<W, false>(blk, base, len[s], T - 1 - u, lane, v);
      curValid |= (uint32_t)v << (u * NS + s);
      sy1[u][s] = enc_symbol<W, false>(blk, base, len[s], T - 1 - U - u, lane, v);
      valid1 |= (uint32_t)v << (u * NS + s);
      cur[u][s] = tab[sy];
    }
  for (int32_t t0 = T - 1; t0 >= 0; t0 -= U) {
    uint32_t sy2[U][NS], valid2 = 0;
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) {
        bool v;
        sy2[u][s] = enc_symbol<W, false>(blk, (uint32_t)s * UZIP_ANS_SEG_SYMS, len[s], t0 - 2 * U - u, lane, v);
        valid2 |= (uint32_t)v << (u * NS + s);
      }
    uint4 nxt[U][NS];
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) nxt[u][s] = tab[sy1[u][s]];
    // Arithmetic only: the U steps of the NS chains, chain-interleaved (step u of chain s needs step u - 1
    // of chain s alone), no ballot, shuffle, store or branch between them, so the NS state chains overlap.
    uint32_t word[U][NS];
    bool emit[U][NS];
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) {  // the encode_segment step, chain s
        const uint4 e = cur[u][s];
        const bool valid = (curValid >> (u * NS + s)) & 1u;
        emit[u][s] = valid && x[s] >= e.w;
        word[u][s] = x[s];  // stored as its low 16 bits
        const uint32_t xs = emit[u][s] ? x[s] >> 16 : x[s];
        const uint32_t q = __umulhi(xs, e.x);
        const uint32_t r = xs - q * e.y;
        const uint32_t gap = UZIP_ANS_M - e.y;
        const uint32_t xn = xs + e.z + q * gap;
        const uint32_t xn1 = xn + gap;
        x[s] = valid ? (r >= e.y ? xn1 : xn) : x[s];
      }
    // Then the group's ballots (off the state chains), then its word stores (predicated, no branch).
    uint32_t mask[U][NS];
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) mask[u][s] = __ballot_sync(FULL_MASK, emit[u][s]);
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) {
        p[s] -= __popc(mask[u][s]);
        if (emit[u][s]) stage[p[s] + __popc(mask[u][s] & lt)] = (uint16_t)word[u][s];
      }
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) {
        cur[u][s] = nxt[u][s];
        sy1[u][s] = sy2[u][s];
      }
    curValid = valid1;
    valid1 = valid2;
  }
#pragma unroll
  for (int s = 0; s < NS; s++) {
    if (!len[s]) break;
    states[s * 32 + lane] = x[s];
    if (lane == 0) {
      nws[s] = (uint32_t)s * UZIP_ANS_SEG_SYMS + UZIP_ANS_SEG_SYMS - (uint32_t)p[s];
      soff[s] = (uint32_t)p[s];
    }
  }
  __syncwarp();
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
// A word of a segment: through the read-only cache when the section is read from global memory.
template <bool G>
__device__ __forceinline__ uint32_t ld_word(const uint16_t* p) {
  return G ? (uint32_t)__ldg(p) : (uint32_t)*p;
}

// The symbol plane's ANS section of a block of 2..4 segments (m > 16384, one table), decoded straight
// into finished elements with the segments' chains interleaved: in step t every lane does step t of each
// segment s (independent states, own word cursors), writing element 16384 s + 32 t + lane. A chain is a
// select-only sequence (table load, multiply-add, compare, ballot, word load, select); a word index past
// the segment's words is not loaded but flagged (corrupt). Remainders are prefetched a group ahead as in
// decode_sym_elems. G: the section is in global memory (not staged).
// p: the section, off: the table's bytes (the segments follow), tab: the decode table built from it.
template <int W, bool G>
__device__ __forceinline__ bool decode_chains_ilp(const uint8_t* __restrict__ p, uint32_t off, uint32_t m,
                                                  const uint32_t* __restrict__ tab, const uint8_t* __restrict__ rem,
                                                  bool isConst, uint32_t remConst, uint8_t* __restrict__ out) {
  constexpr int NS = 4, U = W == 4 ? UZIP_ILP_DEC_U4 : UZIP_ILP_DEC_U;
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const uint32_t nseg = uzip_ans_nseg(m);
  uint32_t len[NS], nw[NS], x[NS], next[NS];
  const uint16_t* wp[NS];
  bool bad = false;
#pragma unroll
  for (int s = 0; s < NS; s++) {
    const uint8_t* seg = p + off;
    const bool here = (uint32_t)s < nseg;
    len[s] = here ? min(m - (uint32_t)s * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS) : 0u;
    nw[s] = here ? *(const uint32_t*)seg : 0u;
    x[s] = here ? *(const uint32_t*)(seg + 4 + 4 * lane) : UZIP_ANS_L;
    wp[s] = (const uint16_t*)(seg + UZIP_ANS_SEG_HEADER_BYTES);
    next[s] = 0;
    bad |= x[s] < UZIP_ANS_L;
    if (here) off += (UZIP_ANS_SEG_HEADER_BYTES + 2u * nw[s] + 3u) & ~3u;
  }
  if (__any_sync(FULL_MASK, bad)) return false;
  const uint32_t T = (len[0] + 31u) / 32u;
  RemRaw<W> ra[U][NS], rb[U][NS];
#pragma unroll
  for (int u = 0; u < U; u++)
#pragma unroll
    for (int s = 0; s < NS; s++) {
      const uint32_t k = 32u * u + lane;
      rem_load<W>(ra[u][s], rem, isConst, remConst, (uint32_t)s * UZIP_ANS_SEG_SYMS + k, k < len[s]);
    }
  auto group = [&](uint32_t t0, const RemRaw<W>(&use)[U][NS], RemRaw<W>(&fill)[U][NS]) {
    if (G && lane < (uint32_t)NS) {  // lane s brings chain s's words two lines ahead into L1
      uint32_t nwl = 0, nxl = 0;
      const uint16_t* wpl = wp[0];
#pragma unroll
      for (int s = 0; s < NS; s++)
        if (lane == (uint32_t)s) { nwl = nw[s]; nxl = next[s]; wpl = wp[s]; }
      if (nwl) prefetch_l1(wpl + min(nxl + UZIP_ILP_WORD_PREFETCH, nwl - 1u));
    }
    if (W > 1 && !isConst) {  // the remainders of each chain UZIP_ILP_REM_AHEAD steps on, towards L2
      constexpr uint32_t RB = (W > 1 ? W - 1 : 1), LINES = (RB * 32u * U + 127u) / 128u + 1u;
      const uint32_t s = lane / LINES, j = lane - s * LINES;
      if (s < (uint32_t)NS) {
        uint32_t ls = 0;
#pragma unroll
        for (int c = 0; c < NS; c++)
          if (s == (uint32_t)c) ls = len[c];
        const uint32_t e = 32u * (t0 + UZIP_ILP_REM_AHEAD), byte = e * RB + 128u * j;
        if (byte < ls * RB) prefetch_l2(rem + ((size_t)s * UZIP_ANS_SEG_SYMS) * RB + byte);
      }
    }
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int s = 0; s < NS; s++) {
        const uint32_t k = 32u * (t0 + U + u) + lane;
        rem_load<W>(fill[u][s], rem, isConst, remConst, (uint32_t)s * UZIP_ANS_SEG_SYMS + k, k < len[s]);
      }
#pragma unroll
    for (int u = 0; u < U; u++) {
      const uint32_t t = t0 + u;
      if (t >= T) break;
      const uint32_t k = 32u * t + lane;
      // Step t of the NS chains in phases, each phase over all chains, so that no chain's load waits behind
      // another chain's ballot or store: table loads; decode arithmetic; ballots; word indices; word loads
      // (predicated); selects; element stores last (nothing is loaded after them in the step).
      uint32_t e[NS], xn[NS], mask[NS], idx[NS], w[NS];
      bool active[NS], need[NS], take[NS];
#pragma unroll
      for (int s = 0; s < NS; s++) {
        active[s] = k < len[s];
        e[s] = tab[x[s] & (UZIP_ANS_M - 1u)];
      }
#pragma unroll
      for (int s = 0; s < NS; s++) {
        const uint32_t d = ((e[s] >> 8) & 0xFFFu) * (x[s] >> UZIP_ANS_PROB_BITS) + (e[s] >> 20);
        xn[s] = active[s] ? d : x[s];
        need[s] = active[s] && xn[s] < UZIP_ANS_L;
      }
#pragma unroll
      for (int s = 0; s < NS; s++) mask[s] = __ballot_sync(FULL_MASK, need[s]);
#pragma unroll
      for (int s = 0; s < NS; s++) {
        idx[s] = next[s] + __popc(mask[s] & lt);
        const bool inb = idx[s] < nw[s];
        take[s] = need[s] && inb;
        bad |= need[s] && !inb;
      }
#pragma unroll
      for (int s = 0; s < NS; s++) w[s] = take[s] ? ld_word<G>(wp[s] + idx[s]) : 0u;
#pragma unroll
      for (int s = 0; s < NS; s++) {
        x[s] = need[s] ? (xn[s] << 16) | w[s] : xn[s];
        next[s] += __popc(mask[s]);
      }
#pragma unroll
      for (int s = 0; s < NS; s++)
        if (active[s]) {
          const uint32_t rv = W == 1 ? 0u : isConst ? remConst : rem_value<W>(use[u][s]);
          store_elem<W>(out + (size_t)((uint32_t)s * UZIP_ANS_SEG_SYMS + k) * W, uzip_join(e[s] & 0xFFu, rv, W));
        }
    }
  };
  for (uint32_t t0 = 0; t0 < T; t0 += 2 * U) {
    group(t0, ra, rb);
    if (t0 + U >= T) break;
    group(t0 + U, rb, ra);
  }
  bool fin = bad;
#pragma unroll
  for (int s = 0; s < NS; s++) fin |= next[s] != nw[s] || x[s] != UZIP_ANS_L;
  return !__any_sync(FULL_MASK, fin);
}

}  // namespace uzip_gpu
