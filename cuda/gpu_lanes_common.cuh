// Pieces shared by the GPU encoder and decoder of lane streams (lanes_format.h): a block is cut into
// 16-byte chunks, chunk j belonging to lane j % 32; these read a chunk and split its elements.
#pragma once

#include <stdint.h>

#include "gpu_warp.cuh"
#include "lanes_format.h"

namespace uzip_gpu {

// Chunk j of a block (valid elements: C = 16 / W, or fewer in the last chunk of a tensor) as four
// little-endian words, zero past the valid elements. A whole chunk of a 16-byte aligned block is one
// vector load through the read-only path.
template <int W>
__device__ __forceinline__ uint4 lanes_load_chunk(const uint8_t* blk, uint32_t j, uint32_t valid, bool aligned) {
  constexpr uint32_t C = 16u / W;
  const uint8_t* p = blk + (size_t)j * 16u;
  if (aligned && valid == C) return __ldg((const uint4*)p);
  uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (e < valid) w[(e * W) / 4u] |= load_elem_nc<W>(p + e * W) << (8u * ((e * W) % 4u));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ uint32_t u4_word(const uint4& q, uint32_t i) {
  return i == 0 ? q.x : i == 1 ? q.y : i == 2 ? q.z : q.w;
}
// Element e (a compile-time index after unrolling) of a chunk.
template <int W>
__device__ __forceinline__ uint32_t lanes_chunk_elem(const uint4& q, uint32_t e) {
  const uint32_t w = u4_word(q, (e * W) / 4u);
  if (W == 4) return w;
  if (W == 2) return (w >> (16u * (e & 1u))) & 0xFFFFu;
  return (w >> (8u * (e & 3u))) & 0xFFu;
}
// The symbol of an element (uzip_symbol_of without the rotation: the exponent bits, or the byte).
template <int W>
__device__ __forceinline__ uint32_t lanes_sym(uint32_t v) {
  if (W == 4) return (v >> 23) & 0xFFu;
  if (W == 2) return (v >> 7) & 0xFFu;
  return v;
}

// Chunks of a block of m elements that lane `lane` owns: `full` whole ones (chunk 32 r + lane for
// r < full), then one partial chunk when `tail` (the tensor's last elements).
template <int W>
__device__ __forceinline__ void lanes_lane_chunks(uint32_t m, uint32_t lane, uint32_t* full, bool* tail) {
  constexpr uint32_t C = 16u / W;
  const uint32_t whole = m / C;  // whole chunks in the block
  *full = whole > lane ? (whole - lane + 31u) / 32u : 0u;
  *tail = (m % C) != 0 && whole % 32u == lane;
}

// Calls f(chunk, j) for the lane's whole chunks j = 32 r + lane, r = 0 .. full - 1 in order, with D chunks
// in flight: a ring of D vectors, each reloaded with chunk r + D as soon as chunk r is consumed, so that a
// chunk's load has D - 1 chunks of work to land. (One chunk at a time left every load's latency exposed:
// bench/results/h200-2026-12-02T0540-session14/1-lanes-first.)
template <int W, int D, typename F>
__device__ __forceinline__ void lanes_each_chunk(const uint8_t* blk, uint32_t full, bool aligned, F&& f) {
  constexpr uint32_t C = 16u / W;
  const uint32_t lane = lane_id();
  uint4 buf[D];
#pragma unroll
  for (uint32_t i = 0; i < (uint32_t)D; i++)
    buf[i] = i < full ? lanes_load_chunk<W>(blk, 32u * i + lane, C, aligned) : make_uint4(0u, 0u, 0u, 0u);
  for (uint32_t r0 = 0; r0 < full; r0 += D) {
#pragma unroll
    for (uint32_t i = 0; i < (uint32_t)D; i++) {
      const uint32_t r = r0 + i;
      if (r < full) {
        f(buf[i], 32u * r + lane);
        if (r + D < full) buf[i] = lanes_load_chunk<W>(blk, 32u * (r + D) + lane, C, aligned);
      }
    }
  }
}

// The same walk with the chunks copied into a shared-memory ring by cp.async (16 bytes a lane, one group
// per chunk): "wait_group D - 1" waits for the oldest chunk only. A ring of registers cannot do that: every
// load of such a ring shares one of the warp's six scoreboard barriers, and the first use of any chunk waits
// for the barrier, i.e. for the load issued last (the SASS of lanes_compress_kernel: each LDG.E.128 of the
// ring sets SB5 and each chunk's first use waits on SB5), so a ring of D registers prefetched nothing and
// every chunk paid a whole memory latency. ring: D * 32 uint4 of the warp's shared memory (this lane uses
// ring[32 i + lane]). A 16-byte aligned block only; otherwise the register walk.
template <int W, int D, typename F>
__device__ __forceinline__ void lanes_each_chunk_async(const uint8_t* blk, uint32_t full, bool aligned, uint4* ring,
                                                       F&& f) {
  if (!aligned) {
    lanes_each_chunk<W, 4>(blk, full, false, f);
    return;
  }
  const uint32_t lane = lane_id();
  const uint32_t slot0 = (uint32_t)__cvta_generic_to_shared(ring + lane);
  const uint4* src = (const uint4*)blk + lane;
#pragma unroll
  for (uint32_t i = 0; i < (uint32_t)D; i++) {
    if (i < full) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(slot0 + 512u * i), "l"(src + 32u * i) : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
  for (uint32_t r0 = 0; r0 < full; r0 += D) {
#pragma unroll
    for (uint32_t i = 0; i < (uint32_t)D; i++) {
      const uint32_t r = r0 + i;
      if (r < full) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(D - 1) : "memory");
        uint4 q;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "r"(slot0 + 512u * i));
        f(q, 32u * r + lane);
        // The slot is refilled after f used q (so after its load returned).
        if (r + D < full)
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(slot0 + 512u * i), "l"(src + 32u * (r + D)) : "memory");
        asm volatile("cp.async.commit_group;\n" ::: "memory");
      }
    }
  }
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

}  // namespace uzip_gpu
