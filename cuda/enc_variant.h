// The GPU encoder's kernel choice for one call (launch_compress in cuda/gpu_codec.cu), kept free of CUDA so
// that the native tests check its boundaries on a machine without a GPU (tests/native/enc_variant_test.cc).
#pragma once

#include <stdint.h>

// compress_kernel shapes (enc_kernel in cuda/gpu_codec.cu): 0 the default (8 steps an unrolled ANS group,
// 16 warps per SM), 1 (4 steps, 20 warps), 2 (2 steps), 3 warp pairs (compress_pairs in cuda/gpu_encode.cuh).
constexpr int UZIP_ENC_VARIANTS = 4;
constexpr int UZIP_ENC_PAIR_VARIANT = 3;

// Rounds of blocks (blocks per resident warp of variant 0) from which one-byte types compress faster in
// variant 1 (4-step groups, ~95 registers, 20 warps per SM, against 8 steps, ~120 registers, 16 warps): it
// gains in steady state and loses at each call's start and end, so it wins only on calls of many rounds.
// Measured (bench/results/h200-2026-12-01T2045-session11/4-kernel-variants): fp8 +2.5% at 7.8 rounds (256 MiB),
// +4.7-6% from 15.5; with session 22's select-form step still +2.5% at 256 MiB and +4.5% at 1 GiB
// (bench/results/h200-2026-12-03T1215-session22/5-enc-rule). Two-byte types used it from 15 rounds until
// session 22; with the select-form step variant 0 is ahead at every size measured there (bf16 split 512 MiB
// +4.5%, 1 GiB +2.5-3.6%, 2 GiB +1.3%, default layout 1 GiB +4%, fp16 1 GiB +0.9%) and level at 4 GiB (split
// +0.9%, default layout -0.8%, one round each) and under 16 and 32 SMs (+2-3% at 256 MiB and 1 GiB,
// 6-enc-rule-sms), so they keep variant 0. Four-byte types lose in it at every size.
constexpr uint64_t UZIP_ENC_MANY_ROUNDS1 = 7;

// Warp pairs compress two- and four-byte types when the call's blocks fill at most half a round of pairs (so
// that the pairs hold no more warps than lone warps would): a lone block's latency is then the call's, and a
// pair takes half the histogram pass and the word stores off the coder's warp. Measured against the lone-warp
// build in one call (bench/results/h200-2026-12-02T1850-session18/5-rule): 1 MiB bf16 split 33.9 -> 32.2 us,
// default layout 40.3 -> 35.3, fp32 34.8 -> 30.5, fp16 55.5 -> 47.3; 8 MiB fp32 36.5 -> 32.0. A full round
// loses where the SMs fill up (bf16 16 MiB, 1024 blocks: split layout +4% / 0%, default layout -7%,
// 4-helper-hist), more rounds lose more (bf16 256 MiB 0.77 -> 0.59 TB/s, 2-duo), and one-byte types lose even
// in one round (fp8 16 MiB -15%, 2-duo: their symbols shed a word every few steps, so the helper's stores are
// the slower half).
//
// width: bytes per element (1, 2, 4); nblocks: the call's blocks; forced: UZIP_GPU_ENC_VARIANT, or -1;
// loneWarps: resident warps of variant 0 under the call's SM budget; pairSlots: resident warp pairs of the
// pair variant under it.
inline int uzip_enc_variant(uint32_t width, uint64_t nblocks, int forced, uint64_t loneWarps, uint64_t pairSlots) {
  if (forced >= 0) return forced;
  if (width >= 2 && 2 * nblocks <= pairSlots) return UZIP_ENC_PAIR_VARIANT;
  if (width == 1 && nblocks >= UZIP_ENC_MANY_ROUNDS1 * loneWarps) return 1;
  return 0;
}

// fp32 with its symbol plane staged (compress_block's SYM: the histogram pass keeps each group's symbol
// bytes after the block's word stage and the coding pass reads those, one byte an element, instead of the
// block's four-byte elements a second time from DRAM). Measured against the unstaged kernel in one call,
// split layout, two rounds each (bench/results/h200-2026-12-05-session35/2-symstage, 4-fp32-big-state):
// 64 MiB 0.766 -> 0.741 TB/s, 256 MiB 1.009 -> 0.973, 1 GiB 1.132-1.147 -> 1.182-1.190, 2 GiB 1.190 -> 1.250,
// 4 GiB 1.224 -> 1.294; the default layout loses (1 GiB 0.928 -> 0.920, 4 GiB 0.964 -> 0.937). ncu at 1 GiB:
// DRAM 69% -> 61% of peak, 936 -> 896 us. So it runs for split-layout fp32 calls of at least 2^28 elements on
// lone warps of the 8-step kernel (variant 0), blocks of one segment, and interleaved coding only.
// forced: UZIP_GPU_ENC_SYMSTAGE (1 always where the kernel exists, 0 never), or -1 for the rule.
constexpr uint64_t UZIP_ENC_SYM_MIN_COUNT = 1ull << 28;
inline bool uzip_enc_sym_staged(uint32_t width, int variant, uint32_t log2Block, uint32_t flags, uint64_t count,
                                int forced) {
  // flags: 0x02 split, 0x04 lanes, 0x08 pairs, 0x10 lean (uzip_format.h; lean streams have kernels of their
  // own); 2^15 blocks have two segments (their own kernels)
  if (width != 4 || variant != 0 || log2Block == 15 || (flags & 0x1Cu)) return false;
  if (forced >= 0) return forced == 1;
  return (flags & 0x02u) && count >= UZIP_ENC_SYM_MIN_COUNT;
}
