// The part of pair coding (FORMAT.md "Pair coding", pairs_format.h) that the GPU encoder and decoder share:
// the pair frequencies, computed by the warp as uzip_pairs_pair_freqs computes them on the CPU.
#pragma once

#include <stdint.h>

#include "gpu_warp.cuh"
#include "pairs_format.h"

namespace uzip_gpu {

// Pair frequencies from the code frequencies: lane l holds myMf = mf[l & 15] and gets pf[i] for the pair
// symbol s = l + 32 i = a | b << 4 (a = l & 15, b = (l >> 4) + 2 i); bestCode: the code of the largest mf
// (lowest on ties), whose pair bestCode * 17 takes a surplus. As uzip_pairs_pair_freqs: the products at
// 2^12, at least 1 where both codes are present, then uzip_settle_freqs_n's rule (largest f, lowest symbol
// on ties, gives while the sum is over).
__device__ __forceinline__ void pairs_warp_pair_freqs(uint32_t myMf, uint32_t bestCode, uint32_t (&pf)[8]) {
  const uint32_t lane = lane_id();
  int32_t d = (int32_t)UZIP_PAIRS_M;
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    const uint32_t fb = __shfl_sync(FULL_MASK, myMf, (lane >> 4) + 2u * i);
    uint32_t f = (myMf * fb) >> UZIP_PAIRS_PROB_BITS;
    if (myMf && fb && f == 0) f = 1;
    pf[i] = f;
    d -= (int32_t)__reduce_add_sync(FULL_MASK, f);  // one redux: 10 shuffle-and-add instructions less
  }
  const uint32_t bestPair = bestCode * 17u;
  if (d >= 0) {
#pragma unroll
    for (uint32_t i = 0; i < 8; i++)
      if (lane + 32u * i == bestPair) pf[i] += (uint32_t)d;
  }
  while (d < 0) {  // rare: many pairs raised to 1
    uint32_t bk = 0;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) bk = max(bk, (pf[i] << 8) | (255u - (lane + 32u * i)));
    bk = __reduce_max_sync(FULL_MASK, bk);
    const uint32_t bf = bk >> 8, bs = 255u - (bk & 255u);
    const uint32_t k = (uint32_t)(-d) < bf - 1u ? (uint32_t)(-d) : bf - 1u;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++)
      if (lane + 32u * i == bs) pf[i] -= k;
    d += (int32_t)k;
  }
}

}  // namespace uzip_gpu
