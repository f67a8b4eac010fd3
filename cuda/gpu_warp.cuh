// Warp-level building blocks of the GPU codec: reductions and scans over the 32 lanes, the frequency
// normalization of uzip_format.h done by a whole warp, element loads, and volatile global accesses.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "uzip_format.h"

#define FULL_MASK 0xFFFFFFFFu

__device__ const uint16_t g_uzip_cost[UZIP_ANS_M] = UZIP_COST_INIT;

__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x & 31u; }

// Seeded streams (FORMAT.md "Lean sections": LEAN, split layout, W > 1), the encoder's and the decoder's
// constants, uzip_format.h's by width: E, the steps a seeded segment's lanes carry (two one-byte remainders or
// one fp32 remainder a lane); BITS, the seed's bits (k of x0 = 2^k + seed); SEG_SEED, a segment's seed bytes.
// (One-byte types, never seeded, take a two-byte type's numbers, so that their dead paths compile.)
template <int W>
struct Seeds {
  static constexpr uint32_t WS = W > 1 ? W : 2, RW = WS - 1, E = uzip_seed_steps_w(WS), BITS = uzip_seed_bits_w(WS),
                            SEG_SEED = uzip_seg_seed_bytes_w(WS);
  static __device__ __forceinline__ bool seg_seeded(uint32_t len) { return uzip_seg_seeded_w(len, WS); }
};

// Profiling build only (-DUZIP_STAGE_CLOCKS): lane 0 of each warp adds the SM cycles spent in each stage
// of a block to g_uzip_stage_clk[slot] (compress slots 0..14, 15 = blocks; decompress 16..30, 31 = blocks;
// slots 9 and 23 hold maxima, UZIP_CLK_MAX), read by uzipGpuDebugStageClocks. In normal builds the marks
// compile to nothing.
#ifdef UZIP_STAGE_CLOCKS
__device__ unsigned long long g_uzip_stage_clk[32];
#define UZIP_CLK(i) uzip_clk_mark((i), uzip_t_)
__device__ __forceinline__ void uzip_clk_mark(int i, long long& t) {
  __syncwarp();
  long long n = clock64();
  if ((threadIdx.x & 31u) == 0) atomicAdd(&g_uzip_stage_clk[i], (unsigned long long)(n - t));
  t = n;
}
// UZIP_CLK_MAX(i): slot i keeps the most cycles one block took since UZIP_CLK_DECL (a block far slower
// than the rest sets a call's tail: one warp still decodes it when the others are done).
#define UZIP_CLK_MAX(i) \
  do { \
    if ((threadIdx.x & 31u) == 0) atomicMax(&g_uzip_stage_clk[i], (unsigned long long)(clock64() - uzip_t0_)); \
  } while (0)
#define UZIP_CLK_DECL long long uzip_t_ = clock64(), uzip_t0_ = uzip_t_
#else
#define UZIP_CLK_DECL (void)0
#define UZIP_CLK(i) (void)0
#define UZIP_CLK_MAX(i) (void)0
#endif
// True when this CTA runs on an SM that the caller left to other kernels (smLimit = SMs the codec may use,
// 0 = all). The host launches a full grid in that case, hoping that some CTAs land on permitted SMs; but
// when other kernels fill those SMs, every CTA may land on a gated one. A gated warp therefore still takes
// blocks until a CTA on a permitted SM has started (gate_open): its warps take tickets until none are
// left, so every block is coded or decoded even then. (Before this rule, such a call did nothing and
// reported success: bench/results/h200-2026-12-01T0334-session8.)
__device__ __forceinline__ uint32_t sm_id() {
  uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__device__ __forceinline__ bool sm_gated(uint32_t smLimit) { return smLimit != 0 && sm_id() >= smLimit; }
// Per CTA, before its first ticket: a CTA on a permitted SM sets *active (its warp 0 then takes tickets
// until none are left). Only under a budget, and a plain store from one thread per CTA: an atomic from
// every warp of a full-chip grid cost ~14% of a 16 MiB decode (bench/results/h200-2026-12-01T0334-session8).
__device__ __forceinline__ void gate_announce(uint32_t smLimit, bool gated, unsigned int* active) {
  if (smLimit != 0 && !gated && threadIdx.x == 0) *(volatile unsigned int*)active = 1u;
}
// Per warp, before each ticket: false when this warp is gated and a permitted CTA is already working.
__device__ __forceinline__ bool gate_open(bool gated, const unsigned int* active) {
  if (!gated) return true;
  unsigned int a = 0;
  if (lane_id() == 0) a = *(const volatile unsigned int*)active;
  return __shfl_sync(FULL_MASK, a, 0) == 0;
}
__device__ __forceinline__ uint32_t lanemask_lt() { return (1u << lane_id()) - 1u; }

__device__ __forceinline__ uint32_t warp_sum_u32(uint32_t v) {
#pragma unroll
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
  return v;
}
__device__ __forceinline__ uint64_t warp_sum_u64(uint64_t v) {
#pragma unroll
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
  return v;
}
// Exclusive prefix sum over lanes.
__device__ __forceinline__ uint32_t warp_excl_scan(uint32_t v) {
  uint32_t x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    uint32_t y = __shfl_up_sync(FULL_MASK, x, o);
    if (lane_id() >= (uint32_t)o) x += y;
  }
  return x - v;
}
// Argmax of (key, lowest index on ties): returns the winning index, all lanes.
__device__ __forceinline__ void warp_argmax(uint32_t& key, uint32_t& idx) {
#pragma unroll
  for (int o = 16; o; o >>= 1) {
    uint32_t k2 = __shfl_xor_sync(FULL_MASK, key, o), i2 = __shfl_xor_sync(FULL_MASK, idx, o);
    if (k2 > key || (k2 == key && i2 < idx)) { key = k2; idx = i2; }
  }
}

// The kernels' end (enc_finish, dec_finish): each warp adds 1 to the count of finished warps and its checksum
// part to the sum in one relaxed 64-bit atomic (GpuSlot keeps the two words side by side), with no fence. A warp
// that wrote something the last warp reads (the stream's total, a decode error, the ticket past the end) orders
// it before its add with fence_acq_rel_gpu, and the warp that takes the last count runs the same fence after its
// add, so it sees them (PTX: a release pattern observed through the count's chain of atomics, then an acquire).
// History: __threadfence() before and after the add (fence.sc.gpu, MEMBAR.SC.GPU) held ~3% of a 16 MiB
// compression's stall samples (session 52, 4-stall-hunt); atom.acq_rel in every warp compressed 1 GiB 0.9%
// slower on an H100 (session 53; the suspect: each acquire invalidates its SM's L1, CCTL.IVALL).
__device__ __forceinline__ void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

__device__ __forceinline__ uint64_t ld_volatile_u64(const unsigned long long* p) {
  return *(const volatile unsigned long long*)p;
}
__device__ __forceinline__ void st_volatile_u64(unsigned long long* p, uint64_t v) {
  *(volatile unsigned long long*)p = v;
}

// One element of width W (little-endian bits) at p, which is W-aligned.
template <int W>
__device__ __forceinline__ uint32_t load_elem(const uint8_t* p) {
  if (W == 1) return *p;
  if (W == 2) return *(const uint16_t*)p;
  return *(const uint32_t*)p;
}
// The same through the read-only path (input that no kernel of this call writes).
template <int W>
__device__ __forceinline__ uint32_t load_elem_nc(const uint8_t* p) {
  if (W == 1) return __ldg(p);
  if (W == 2) return __ldg((const uint16_t*)p);
  return __ldg((const uint32_t*)p);
}
template <int W>
__device__ __forceinline__ void store_elem(uint8_t* p, uint32_t v) {
  if (W == 1) *p = (uint8_t)v;
  else if (W == 2) *(uint16_t*)p = (uint16_t)v;
  else *(uint32_t*)p = v;
}

// Group g = elements 16g .. 16g+15 of a block (m elements at blk). A whole group of a 16-byte aligned
// block loads as W 16-byte vectors: load_group_raw issues those loads (zeros otherwise), so that a
// caller can put several groups in flight before unpack_group turns each into v[16] (elements past m
// read as 0; partial or unaligned groups are loaded element by element there).
template <int W>
__device__ __forceinline__ bool group_whole(uint32_t g, uint32_t m, bool aligned) {
  return aligned && 16u * g + 16u <= m;
}
template <int W>
__device__ __forceinline__ void load_group_raw(const uint8_t* blk, uint32_t g, uint32_t m, bool aligned, uint4 q[W]) {
  const uint4* p = (const uint4*)(blk + (size_t)g * 16u * W);
  const bool whole = group_whole<W>(g, m, aligned);
#pragma unroll
  for (int i = 0; i < W; i++) q[i] = whole ? __ldg(p + i) : make_uint4(0, 0, 0, 0);
}
template <int W>
__device__ __forceinline__ void unpack_group(const uint8_t* blk, uint32_t g, uint32_t m, bool aligned, const uint4 q[W],
                                             uint32_t v[16]) {
  if (group_whole<W>(g, m, aligned)) {
    const uint32_t* w = (const uint32_t*)q;
#pragma unroll
    for (int i = 0; i < 16; i++) {
      if (W == 1) v[i] = (w[i >> 2] >> (8 * (i & 3))) & 0xFFu;
      else if (W == 2) v[i] = (w[i >> 1] >> (16 * (i & 1))) & 0xFFFFu;
      else v[i] = w[i];
    }
  } else {
    const uint8_t* p = blk + (size_t)g * 16u * W;
    uint32_t valid = m - 16u * g;
#pragma unroll
    for (int i = 0; i < 16; i++) v[i] = (uint32_t)i < valid ? load_elem<W>(p + i * W) : 0u;
  }
}

// The checksum terms (uzip_checksum_term) of bytes [0, bytes) at out, whose first word is word word0 of the
// tensor (the last one zero-padded), summed over the warp. out may be 4-byte aligned or not.
__device__ __forceinline__ uint32_t warp_checksum_bytes(const uint8_t* out, uint32_t bytes, uint64_t word0) {
  const uint32_t nwd = (bytes + 3u) / 4u;
  const bool al4 = (((uintptr_t)out) & 3u) == 0;
  uint32_t sum = 0;
  for (uint32_t i = lane_id(); i < nwd; i += 32) {
    uint32_t w;
    if (al4 && 4 * i + 4 <= bytes) {
      w = *(const uint32_t*)(out + 4 * i);
    } else {
      w = 0;
      for (uint32_t j = 0; j < 4; j++)
        if (4 * i + j < bytes) w |= (uint32_t)out[4 * i + j] << (8 * j);
    }
    sum += uzip_checksum_term(w, word0 + i);
  }
  return warp_sum_u32(sum);
}

// The 4W checksum words of a group (elements past the end are zero, so the last word is zero-padded).
template <int W>
__device__ __forceinline__ uint32_t group_word(const uint32_t v[16], int i) {
  if (W == 4) return v[i];
  if (W == 2) return v[2 * i] | (v[2 * i + 1] << 16);
  return v[4 * i] | (v[4 * i + 1] << 8) | (v[4 * i + 2] << 16) | (v[4 * i + 3] << 24);
}

// uzip_normalize_freqs over a whole warp: counts[256] (shared) of a plane of `total` symbols into
// freqs[256] (shared). Returns the number of symbols present; *bits256 gets uzip_cost_bits256.
__device__ uint32_t warp_normalize(const uint32_t* counts, uint32_t total, uint32_t* freqs, uint64_t* bits256) {
  const uint32_t lane = lane_id();
  int32_t sum = 0;
  uint32_t bestc = 0, bests = 0xFFFFu, cs[8];
  // Every count loaded before the first store to freqs (which the compiler cannot tell from counts).
#pragma unroll
  for (int i = 0; i < 8; i++) cs[i] = counts[lane + 32u * i];
#pragma unroll
  for (int i = 0; i < 8; i++) {
    uint32_t s = lane + 32u * i, c = cs[i], f = 0;
    if (c) {
      f = (c * UZIP_ANS_M) / total;  // 32-bit: c <= total < 2^18 (a plane of one block), so c * 2^11 < 2^29
      if (f == 0) f = 1;
    }
    if (c > bestc) { bestc = c; bests = s; }
    freqs[s] = f;
    sum += (int32_t)f;
  }
  sum = (int32_t)warp_sum_u32((uint32_t)sum);
  warp_argmax(bestc, bests);
  int32_t d = (int32_t)UZIP_ANS_M - sum;
  __syncwarp();
  if (d >= 0) {
    if (lane == 0) freqs[bests] += (uint32_t)d;
    __syncwarp();
  } else {
    while (d < 0) {
      uint32_t bf = 0, b = 0xFFFFu;
#pragma unroll
      for (int i = 0; i < 8; i++) {
        uint32_t s = lane + 32u * i, f = freqs[s];
        if (f > bf) { bf = f; b = s; }
      }
      warp_argmax(bf, b);
      uint32_t k = (uint32_t)(-d) < bf - 1u ? (uint32_t)(-d) : bf - 1u;
      __syncwarp();
      if (lane == 0) freqs[b] -= k;
      __syncwarp();
      d += (int32_t)k;
    }
  }
  uint32_t present = 0;
  uint64_t bits = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    uint32_t s = lane + 32u * i, c = cs[i];
    if (c) {
      present++;
      bits += (uint64_t)c * __ldg(&g_uzip_cost[freqs[s] - 1u]);
    }
  }
  *bits256 = warp_sum_u64(bits);
  return warp_sum_u32(present);
}
