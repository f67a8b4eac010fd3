// GPU encoder of lane streams (FORMAT.md "Lane streams", lanes_format.h): one warp per block, blocks
// handed out by ticket, output offsets by the decoupled look-back of gpu_encode.cuh, the same bytes as
// the CPU reference (cpu_lanes.cc).
//
// A block takes two passes over its input (the second from L2):
//   A. each lane reads its chunks (16-byte vectors), writes their remainders to the split plane, keeps the
//      running min and max symbol, and counts the sampled symbols (every 8th element) in shared memory;
//   B. after the warp built the table, each lane codes its own symbols into its own word buffer: a lane
//      step is a table load, one compare, a predicated store and shift, and the exact-reciprocal update.
// Then the block's size goes to the look-back and the section is written, each lane's words by the
// whole warp in turn.
#pragma once

#include "gpu_encode.cuh"
#include "gpu_lanes_common.cuh"

namespace uzip_gpu {

// Shared memory of one warp: the symbol table (256 uzip_lanes_enc_sym, 4 KB), then each lane's word buffer
// of LANES_ENC_BUF words (stride LANES_ENC_STRIDE u16: odd in 32-bit words, so that lanes holding equal
// counts use different banks). A lane's buffer is flushed 32 words at a time to its region of the global
// word stage (cap words per lane, P.scratch), so the shared memory no longer grows with the block: at
// 16.5 KB of buffers per warp (2^14 blocks) the encoder ran 10 warps per SM, latency-bound
// (bench/results/h200-2026-12-02T0540-session14/4-profile). The sample's counts (256 u32) use the buffers
// until the table is built.
constexpr uint32_t LANES_ENC_BUF = 48u;  // 31 pending words + one chunk of up to 16, then the flush
constexpr uint32_t LANES_ENC_STRIDE = 50u;
constexpr uint32_t LANES_ENC_WARP_BYTES = 4096u + 2u * UZIP_LANES_N * LANES_ENC_STRIDE;
// Shared memory of one warp: the table and word buffers, then the staged symbols (one byte per element of
// a block) when syms, then a cp.async ring of `ring` chunks (512 bytes each) when ring > 0.
__host__ __device__ inline uint32_t lanes_enc_warp_bytes(uint32_t log2, bool syms, uint32_t ring) {
  return LANES_ENC_WARP_BYTES + (syms ? (1u << log2) : 0u) + 512u * ring;
}
// Bytes of the global word stage per warp.
__host__ __device__ inline uint32_t lanes_enc_stage_bytes(uint32_t log2) {
  return 2u * UZIP_LANES_N * uzip_lanes_word_cap(log2);
}

__device__ __forceinline__ uint32_t min_u16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("min.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ __forceinline__ uint32_t max_u16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("max.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// One lane's encoder step (uzip_lanes_encode with the table entry t = {rcp, xsh, cmpl, bias}); wa is the
// shared-memory address of the lane's next word slot. The renormalization is predicated in PTX: written
// in C++ it became a divergent branch per step, and the store into shared memory made the compiler reload
// the table entry after it (it could not tell the two apart), both on the state's chain
// (bench/results/h200-2026-12-02T0540-session14/2-prefetch: 0.42 TB/s).
__device__ __forceinline__ void lanes_enc_step(uint32_t& x, uint32_t& wa, const uint4 t) {
  asm volatile(
      "{\n\t.reg .pred p;\n\t.reg .b32 u;\n\tor.b32 u, %0, 1048575;\n\tsetp.ge.u32 p, u, %2;\n\t"
      "@p st.shared.u16 [%1], %0;\n\t@p add.u32 %1, %1, 2;\n\t@p shr.u32 %0, %0, 16;\n\t}"
      : "+r"(x), "+r"(wa)
      : "r"(t.y));
  const uint32_t q = __funnelshift_r(__umulhi(x, t.x), 0u, t.y);  // shift = t.y & 31
  x = x + t.w + q * t.z;
}

// A chunk's remainders to the split plane and its checksum terms (csum), for the split-layout encoders of
// lane streams and of pair coding. j: chunk index in the block; first: the block's first element; valid:
// elements in the chunk.
template <int W, bool FULL>
__device__ __forceinline__ void chunk_split_rems(const EncParams& P, const uint4& q, uint32_t j, uint64_t first,
                                                 uint32_t valid, uint32_t& csum) {
  constexpr uint32_t C = 16u / W, RW = W > 1 ? W - 1 : 0;
  if constexpr (W > 1) {
    uint8_t* rp = P.dst + UZIP_HEADER_BYTES + (first + (uint64_t)j * C) * RW;
    if (FULL && W == 2) {
      *(uint2*)rp = make_uint2(rem_bytes4(u4_word(q, 0), u4_word(q, 1)), rem_bytes4(u4_word(q, 2), u4_word(q, 3)));
    } else if (FULL && W == 4) {
      uint32_t r[4];
#pragma unroll
      for (uint32_t i = 0; i < 4; i++) r[i] = uzip_remainder_of(u4_word(q, i), 4);
      uint32_t* o = (uint32_t*)rp;
      o[0] = r[0] | (r[1] << 24);
      o[1] = (r[1] >> 8) | (r[2] << 16);
      o[2] = (r[2] >> 16) | (r[3] << 8);
    } else {
#pragma unroll
      for (uint32_t e = 0; e < C; e++)
        if (FULL || e < valid) {
          const uint32_t r = uzip_remainder_of(lanes_chunk_elem<W>(q, e), W);
#pragma unroll
          for (uint32_t b = 0; b < RW; b++) rp[e * RW + b] = (uint8_t)(r >> (8u * b));
        }
    }
  }
  if (P.flags & UZIP_FLAG_CHECKSUM) {
    const uint32_t bytes = valid * W;
    const uint64_t word0 = (first * W + (uint64_t)j * 16u) / 4u;
#pragma unroll
    for (uint32_t i = 0; i < 4; i++)
      if (4u * i < bytes) csum += uzip_checksum_term(u4_word(q, i), word0 + i);
  }
}

// Pass A over one chunk: remainders to the split plane, symbol range, sample counts, checksum terms.
// j: chunk index in the block; first: the block's first element; valid: elements in the chunk.
template <int W, bool FULL>
__device__ __forceinline__ void lanes_pass_a(const EncParams& P, const uint4& q, uint32_t j, uint64_t first,
                                             uint32_t valid, uint32_t* hist, uint32_t& mn, uint32_t& mx,
                                             uint32_t& mn2, uint32_t& mx2, uint32_t& csum) {
  constexpr uint32_t C = 16u / W;
  if (FULL && W == 2) {  // 16-bit lanes of the words: exponent bits 7..14 of each element
#pragma unroll
    for (uint32_t i = 0; i < 4; i++) {
      const uint32_t t = u4_word(q, i) & 0x7F807F80u;
      mn2 = min_u16x2(mn2, t);
      mx2 = max_u16x2(mx2, t);
    }
  } else {
#pragma unroll
    for (uint32_t e = 0; e < C; e++)
      if (FULL || e < valid) {
        const uint32_t s = lanes_sym<W>(lanes_chunk_elem<W>(q, e));
        mn = min(mn, s);
        mx = max(mx, s);
      }
  }
#pragma unroll
  for (uint32_t e = 0; e < C; e += (C < 8u ? C : 8u))  // the sample: block elements 0 mod 8
    if ((FULL || e < valid) && ((j * C + e) & 7u) == 0)
      atomicAdd(&hist[lanes_sym<W>(lanes_chunk_elem<W>(q, e))], 1u);
  chunk_split_rems<W, FULL>(P, q, j, first, valid, csum);
}

// A lane's word buffer and its flushes to the global stage.
struct LanesWords {
  uint32_t base, wa;  // shared addresses: buffer start, next slot
  uint32_t flushed;   // words already in the lane's global region
  uint16_t* buf;      // the buffer (generic pointer, for the flush's loads)
  uint32_t* gl;       // the lane's region of the global stage (cap words)
  uint32_t cap;
  bool over;          // more than cap words: the plane will be RAW
};
// After a chunk: with 32 or more words pending, move 32 to the global stage (64 bytes, whole sectors) and
// the rest (at most 15) down to the buffer's start. A lane that would pass cap is over its budget (its
// count can only grow): its pending words are dropped.
__device__ __forceinline__ void lanes_flush(LanesWords& L) {
  const uint32_t pend = (L.wa - L.base) / 2u;
  if (pend < 32u) return;
  asm volatile("" ::: "memory");
  if (L.flushed + 32u > L.cap) {
    L.over = true;
    L.wa = L.base;
    return;
  }
  const uint32_t* b32 = (const uint32_t*)L.buf;
  uint32_t* g = L.gl + L.flushed / 2u;
#pragma unroll
  for (uint32_t i = 0; i < 16u; i++) g[i] = b32[i];
  uint32_t rest[8];
#pragma unroll
  for (uint32_t i = 0; i < 8u; i++) rest[i] = b32[16u + i];
  uint32_t* w32 = (uint32_t*)L.buf;
#pragma unroll
  for (uint32_t i = 0; i < 8u; i++) w32[i] = rest[i];
  asm volatile("" ::: "memory");
  L.flushed += 32u;
  L.wa -= 64u;
}

// Pass B over one chunk: the lane codes the chunk's symbols in order, then flushes.
template <int W, bool FULL>
__device__ __forceinline__ void lanes_pass_b(const uint4& q, uint32_t valid, const uint4* tab, uint32_t& x, LanesWords& L) {
  constexpr uint32_t C = 16u / W;
  uint4 t[C];
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (FULL || e < valid) t[e] = tab[lanes_sym<W>(lanes_chunk_elem<W>(q, e))];
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (FULL || e < valid) lanes_enc_step(x, L.wa, t[e]);
  lanes_flush(L);
}

// The symbol bytes of one chunk (a RAW section).
template <int W, bool FULL>
__device__ __forceinline__ void lanes_put_raw(uint8_t* out, const uint4& q, uint32_t j, uint32_t valid) {
  constexpr uint32_t C = 16u / W;
  uint8_t* o = out + (size_t)j * C;
  if (FULL && W == 1) {
    *(uint4*)o = q;
  } else if (FULL && W == 2) {
    uint32_t s[4];
#pragma unroll
    for (uint32_t i = 0; i < 4; i++) {
      const uint32_t w = u4_word(q, i);
      s[i] = ((w >> 7) & 0xFFu) | ((w >> 15) & 0xFF00u);
    }
    *(uint2*)o = make_uint2(s[0] | (s[1] << 16), s[2] | (s[3] << 16));
  } else if (FULL && W == 4) {
    *(uint32_t*)o = ((q.x >> 23) & 0xFFu) | ((q.y >> 15) & 0xFF00u) | ((q.z >> 7) & 0xFF0000u) | ((q.w << 1) & 0xFF000000u);
  } else {
#pragma unroll
    for (uint32_t e = 0; e < C; e++)
      if (e < valid) o[e] = (uint8_t)lanes_sym<W>(lanes_chunk_elem<W>(q, e));
  }
}

// The symbol bytes of chunk j from the warp's staged copy (SYMS kernels): one shared load of C bytes.
template <int W>
__device__ __forceinline__ uint4 lanes_staged_syms(const uint8_t* syms, uint32_t j) {
  if (W == 1) return *(const uint4*)(syms + 16u * j);
  if (W == 2) {
    const uint2 v = *(const uint2*)(syms + 8u * j);
    return make_uint4(v.x, v.y, 0u, 0u);
  }
  return make_uint4(*(const uint32_t*)(syms + 4u * j), 0u, 0u, 0u);
}

// Pass B over one chunk whose symbols were staged by pass A (v: lanes_staged_syms; byte e is symbol e).
template <int W, bool FULL>
__device__ __forceinline__ void lanes_pass_b_staged(const uint4& v, uint32_t valid, const uint4* tab, uint32_t& x,
                                                    LanesWords& L) {
  constexpr uint32_t C = 16u / W;
  uint4 t[C];
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (FULL || e < valid) t[e] = tab[(u4_word(v, e / 4u) >> (8u * (e % 4u))) & 0xFFu];
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (FULL || e < valid) lanes_enc_step(x, L.wa, t[e]);
  lanes_flush(L);
}

template <int W, bool SYMS, int DA, int RING>
__device__ void lanes_compress_block(const EncParams& P, uint8_t* sm, uint32_t b, uint32_t* csumAcc) {
  constexpr uint32_t C = 16u / W;
  const uint32_t lane = lane_id();
  const uint32_t m = uzip_block_len(P.count, P.log2Block, b);
  const uint64_t first = (uint64_t)b << P.log2Block;
  const uint8_t* blk = P.src + first * W;
  const bool aligned = P.srcAligned16 != 0;
  uint4* tab = (uint4*)sm;
  uint16_t* wbuf = (uint16_t*)(sm + 4096);
  uint32_t* hist = (uint32_t*)wbuf;
  uint8_t* syms = sm + LANES_ENC_WARP_BYTES;  // SYMS: the block's symbol bytes, written by pass A
  uint4* ring = (uint4*)(syms + (SYMS ? (1u << P.log2Block) : 0u));  // RING > 0: the cp.async ring
  const uint32_t cap = uzip_lanes_word_cap(P.log2Block), stride = LANES_ENC_STRIDE;
  uint32_t* stage = (uint32_t*)(P.scratch + (size_t)(blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * P.stageBytes);
  uint32_t full;
  bool tail;
  lanes_lane_chunks<W>(m, lane, &full, &tail);

  // Pass A.
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) hist[lane + 32u * i] = 0;
  __syncwarp();
  uint32_t mn = 0xFFFFFFFFu, mx = 0, mn2 = 0xFFFFFFFFu, mx2 = 0, csum = 0;
  auto pass_a = [&](const uint4& q, uint32_t j) {
    lanes_pass_a<W, true>(P, q, j, first, C, hist, mn, mx, mn2, mx2, csum);
    if (SYMS) lanes_put_raw<W, true>(syms, q, j, C);
  };
  if (RING > 0) {
    lanes_each_chunk_async<W, (RING > 0 ? RING : 1)>(blk, full, aligned, ring, pass_a);
  } else {
    lanes_each_chunk<W, DA>(blk, full, aligned, pass_a);
  }
  if (tail) {
    const uint32_t j = m / C;
    const uint4 q = lanes_load_chunk<W>(blk, j, m - j * C, aligned);
    lanes_pass_a<W, false>(P, q, j, first, m - j * C, hist, mn, mx, mn2, mx2, csum);
    if (SYMS) lanes_put_raw<W, false>(syms, q, j, m - j * C);
  }
  if (W == 2) {
    mn = min(mn, min(mn2 & 0xFFFFu, mn2 >> 16) >> 7);
    mx = max(mx, max(mx2 & 0xFFFFu, mx2 >> 16) >> 7);
  }
  *csumAcc += csum;
  const uint32_t lo = __reduce_min_sync(FULL_MASK, mn), hi = __reduce_max_sync(FULL_MASK, mx);
  __syncwarp();

  uint32_t mode, used;
  uint32_t x = UZIP_LANES_L, k = 0, prefix = 0, total = 0, pend = 0, flushed = 0;
  if (lo == hi) {
    mode = UZIP_MODE_CONST;
    used = 1;
  } else {
    // The table (uzip_lanes_normalize over the warp): symbol lo + lane + 32 i in row i.
    const uint32_t n = (m + 7u) >> UZIP_LANES_SAMPLE_SHIFT;
    uint32_t f[8];
    int32_t sum = 0;
    uint32_t bestc = 0, bests = 0xFFFFu;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) {
      const uint32_t s = lo + lane + 32u * i;
      f[i] = 0;
      if (s <= hi) {
        const uint32_t c = hist[s];
        f[i] = max(1u, (c * UZIP_ANS_M) / n);
        if (c > bestc) { bestc = c; bests = s; }
      }
      sum += (int32_t)f[i];
    }
    sum = (int32_t)warp_sum_u32((uint32_t)sum);
    warp_argmax(bestc, bests);
    int32_t d = (int32_t)UZIP_ANS_M - sum;
    if (d >= 0) {
#pragma unroll
      for (uint32_t i = 0; i < 8; i++)
        if (lo + lane + 32u * i == bests) f[i] += (uint32_t)d;
    }
    while (d < 0) {  // rare: many symbols of the range absent from the sample
      uint32_t bf = 0, bs = 0xFFFFu;
#pragma unroll
      for (uint32_t i = 0; i < 8; i++)
        if (f[i] > bf) { bf = f[i]; bs = lo + lane + 32u * i; }
      warp_argmax(bf, bs);
      const uint32_t kk = (uint32_t)(-d) < bf - 1u ? (uint32_t)(-d) : bf - 1u;
#pragma unroll
      for (uint32_t i = 0; i < 8; i++)
        if (lo + lane + 32u * i == bs) f[i] -= kk;
      d += (int32_t)kk;
    }
    uint32_t carry = 0;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) {
      const uint32_t s = lo + lane + 32u * i;
      const uint32_t cum = carry + warp_excl_scan(f[i]);
      carry += warp_sum_u32(f[i]);
      if (s <= hi) {
        const uzip_lanes_enc_sym e = uzip_lanes_enc_entry(f[i], cum);
        tab[s] = make_uint4(e.rcp, e.xsh, e.cmpl, e.bias);
      }
    }
    __syncwarp();

    // Pass B: each lane codes its symbols into its word buffer.
    LanesWords L;
    L.buf = wbuf + lane * stride;
    L.base = L.wa = (uint32_t)__cvta_generic_to_shared(L.buf);
    L.flushed = 0;
    L.gl = stage + lane * (cap / 2u);
    L.cap = cap;
    L.over = false;
    asm volatile("" ::: "memory");  // the table is read, and the counts it aliases are dead, before any word store
    if (SYMS) {  // symbols from shared memory, the next chunk's loaded while this one is coded
      uint4 v = full ? lanes_staged_syms<W>(syms, lane) : make_uint4(0u, 0u, 0u, 0u);
      for (uint32_t r = 0; r < full; r++) {
        const uint4 cur = v;
        if (r + 1u < full) v = lanes_staged_syms<W>(syms, 32u * (r + 1u) + lane);
        lanes_pass_b_staged<W, true>(cur, C, tab, x, L);
      }
      if (tail) {
        const uint32_t j = m / C;
        lanes_pass_b_staged<W, false>(lanes_staged_syms<W>(syms, j), m - j * C, tab, x, L);
      }
    } else {
      auto pass_b = [&](const uint4& q, uint32_t) { lanes_pass_b<W, true>(q, C, tab, x, L); };
      if (RING > 0) {
        lanes_each_chunk_async<W, (RING > 0 ? RING : 1)>(blk, full, aligned, ring, pass_b);
      } else {
        lanes_each_chunk<W, 4>(blk, full, aligned, pass_b);
      }
      if (tail) {
        const uint32_t j = m / C;
        lanes_pass_b<W, false>(lanes_load_chunk<W>(blk, j, m - j * C, aligned), m - j * C, tab, x, L);
      }
    }
    asm volatile("" ::: "memory");  // the word stores (PTX the compiler cannot see into) before any read of them
    pend = (L.wa - L.base) / 2u;
    flushed = L.flushed;
    k = flushed + pend;
    const bool over = __any_sync(FULL_MASK, L.over || k > cap);
    prefix = warp_excl_scan(k);
    total = warp_sum_u32(k);
    used = uzip_lanes_table_bytes(lo, hi) + UZIP_LANES_FIXED_BYTES + 2u * total;
    mode = (over || used >= m) ? UZIP_MODE_RAW : UZIP_MODE_LANES;
    if (mode == UZIP_MODE_RAW) used = m;
  }

  // Output offset, then the section.
  const uint32_t padded = (uint32_t)uzip_pad16(used);
  lb_publish(P.lookback, b, padded, P.epoch);
  const uint64_t excl = lb_resolve(P.lookback, b, padded, P.epoch);
  uint8_t* out = P.dst + P.payloadOff + excl;
  __syncwarp();  // every lane's flushed words (global stage) visible to the warp
  if (mode == UZIP_MODE_CONST) {
    if (lane == 0) *(uint4*)out = make_uint4(lo, 0u, 0u, 0u);
  } else if (mode == UZIP_MODE_RAW && SYMS) {  // the staged symbols (16-byte aligned, as out)
    for (uint32_t i = 16u * lane; i + 16u <= m; i += 512u) *(uint4*)(out + i) = *(const uint4*)(syms + i);
    for (uint32_t i = (m & ~15u) + lane; i < m; i += 32u) out[i] = syms[i];
    if (lane < padded - m) out[m + lane] = 0;
  } else if (mode == UZIP_MODE_RAW) {
    lanes_each_chunk<W, 4>(blk, full, aligned, [&](const uint4& q, uint32_t j) { lanes_put_raw<W, true>(out, q, j, C); });
    if (tail) {
      const uint32_t j = m / C;
      lanes_put_raw<W, false>(out, lanes_load_chunk<W>(blk, j, m - j * C, aligned), j, m - j * C);
    }
    if (lane < padded - m) out[m + lane] = 0;
  } else {
    const uint32_t K = hi - lo + 1u, T = uzip_lanes_table_bytes(lo, hi);
    if (lane == 0) *(uint32_t*)out = lo | (hi << 8);
    for (uint32_t i = lane; i < K; i += 32u) *(uint16_t*)(out + 4u + 2u * i) = (uint16_t)(UZIP_ANS_M - tab[lo + i].z);
    if (lane == 0 && (K & 1u)) *(uint16_t*)(out + 4u + 2u * K) = 0;
    *(uint32_t*)(out + T + 4u * lane) = x;
    *(uint16_t*)(out + T + 4u * UZIP_LANES_N + 2u * lane) = (uint16_t)k;
    // The lanes' words, lane after lane, the warp storing 32 consecutive words at a time.
    const uint32_t wo = T + UZIP_LANES_FIXED_BYTES;
    // A lane's flushed words (at most cap <= 256: 8 per thread) are loaded while the previous lane's are
    // stored, so that the 32 lanes do not each wait a round trip to L2. (Two lanes at a time measured no
    // faster: bench/results/h200-2026-12-02T0750-session15/3-writer.) __ldcg: the stage was written by this
    // kernel (the read-only path could hold stale lines).
    constexpr uint32_t V = (1u << (UZIP_LANES_LOG2_BLOCK_MAX - 6u)) / 32u;
    uint16_t v[V];
    auto load_flushed = [&](uint32_t l, uint32_t fl) {
      const uint16_t* g = (const uint16_t*)(stage + l * (cap / 2u));
#pragma unroll
      for (uint32_t u = 0; u < V; u++) v[u] = lane + 32u * u < fl ? __ldcg(g + lane + 32u * u) : (uint16_t)0;
    };
    uint32_t fl = __shfl_sync(FULL_MASK, flushed, 0);
    load_flushed(0, fl);
#pragma unroll 1
    for (uint32_t l = 0; l < UZIP_LANES_N; l++) {
      const uint32_t pl = __shfl_sync(FULL_MASK, prefix, l), kl = __shfl_sync(FULL_MASK, pend, l);
      const uint32_t fn = __shfl_sync(FULL_MASK, flushed, (l + 1u) & 31u);
      uint16_t cur[V];
#pragma unroll
      for (uint32_t u = 0; u < V; u++) cur[u] = v[u];
      if (l + 1u < UZIP_LANES_N) load_flushed(l + 1u, fn);
      uint16_t* dst = (uint16_t*)(out + wo) + pl;
#pragma unroll
      for (uint32_t u = 0; u < V; u++)
        if (lane + 32u * u < fl) dst[lane + 32u * u] = cur[u];
      const uint16_t* src = wbuf + l * stride;
      for (uint32_t i = lane; i < kl; i += 32u) dst[fl + i] = src[i];
      fl = fn;
    }
    uint32_t z = wo + 2u * total;  // zero padding to 16
    if (z & 2u) {
      if (lane == 0) *(uint16_t*)(out + z) = 0;
      z += 2u;
    }
    for (uint32_t o = z + 4u * lane; o < padded; o += 128u) *(uint32_t*)(out + o) = 0;
  }
  // The split plane's padding (after the last remainder), once.
  if (W > 1 && b == P.nblocks - 1) {
    const uint64_t from = UZIP_HEADER_BYTES + P.count * (W - 1);
    if (from + lane < P.dirOff) P.dst[from + lane] = 0;
  }
  write_dir_entry(P, b, excl + padded, mode, W == 1 ? UZIP_MODE_NONE : UZIP_MODE_EXTERNAL);
  __syncwarp();  // the word buffers are rewritten by the next block
}

// WARPS warps per CTA, each coding one block at a time (lanes_enc_warp_bytes of shared memory each, and
// P.stageBytes of the global word stage). SYMS: pass A stages the block's symbols in shared memory and
// pass B codes from there, instead of reading the block a second time. The passes read the block through
// a cp.async ring of RING chunks (lanes_each_chunk_async), or with RING = 0 a ring of DA registers.
template <int W, int WARPS, int MINB, bool SYMS, int DA, int RING>
__global__ void __launch_bounds__(32 * WARPS, MINB) lanes_compress_kernel(const EncParams P) {
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  uint8_t* sm = smem + (size_t)wib * lanes_enc_warp_bytes(P.log2Block, SYMS, RING);
  GpuSlot* slot = &P.slots[P.epoch & 1u];
  clean_next_slot(P.slots, P.epoch);
  uint32_t csum = 0;
  const bool gated = sm_gated(P.smLimit);
  gate_announce(P.smLimit, gated, &slot->active);
  while (gate_open(gated, &slot->active)) {
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(&slot->ticket, 1ull);
    t = __shfl_sync(FULL_MASK, t, 0);
    if (t >= P.nblocks) break;
    lanes_compress_block<W, SYMS, DA, RING>(P, sm, (uint32_t)t, &csum);
  }
  enc_finish(P, slot, warp_sum_u32(csum));
}

}  // namespace uzip_gpu
