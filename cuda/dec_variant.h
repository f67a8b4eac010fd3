// The GPU decoder's kernel choice for one call (choose_decoder in cuda/gpu_codec.cu), kept free of CUDA so
// that the native tests check its boundaries on a machine without a GPU (tests/native/dec_variant_test.cc).
// The caller may name the stream's dtype (a hint: any kernel decodes any stream, its header decides).
#pragma once

#include <stdint.h>

#include "uzip_format.h"

enum UzipDecKernel {
  UZIP_DEC_DEFAULT = 0,    // dec_kernel(-1): 8-step groups, 20 warps per SM
  UZIP_DEC_FORCED = 1,     // dec_kernel(UZIP_GPU_DEC_VARIANT)
  UZIP_DEC_FUSED = 2,      // the decode-reduce kernel
  UZIP_DEC_WIDE = 3,       // fp32's kernel: 8-step groups of fp32, 16 warps, 128 registers
  UZIP_DEC_ONE_ROUND = 4,  // 16 warps without spills, for calls of about one round of blocks
  UZIP_DEC_COMPACT = 5,    // the compact shared layout: 24 warps per SM (variant 4)
};

// Blocks of a destination of dstCapacity bytes for a stream of dtype at its default block size (the
// encoder's uzip_default_log2_block): the host's estimate, as it cannot read the stream's header.
inline uint64_t uzip_dec_blocks_estimate(int dtype, uint64_t dstCapacity) {
  const uint64_t count = dstCapacity / uzip_dtype_width((uint32_t)dtype);
  const uint32_t log2 = uzip_default_log2_block(count, (uint32_t)dtype);
  return (count + (1ull << log2) - 1) >> log2;
}

// fused: decode-reduce; forced: UZIP_GPU_DEC_VARIANT, or -1; dtypeHint: the caller's dtype, or -1;
// dstCapacity: the destination's bytes; budget: the SMs the call may use; sms: the device's;
// oneRoundWarps: resident warps of the one-round kernel under the budget.
// - fp32 on at least half the chip: the wide kernel, +8-19% at 16 MiB-4 GiB on all 132 SMs of an H200, -5-7%
//   at 1 GiB under budgets of 8-32 SMs (bench/results/h200-2026-12-01T2045-session11/10-wide-checks); under
//   48-116 SMs (bench/results/h200-2026-12-01T2335-session12/1-next) the same at 48 and 64, +9-16% at 96 and
//   at 116 for 1 GiB, -6% at 116 for 256 MiB.
// - one- and two-byte types of more than a third of and at most one round of the one-round kernel's warps:
//   it (bench/results/h200-2026-12-01T2335-session12/1-next: bf16 and fp16 64 MiB +8-9%).
// - beyond that round, on at least half the chip: the compact layout (bench/results/h200-2026-12-03T0735-
//   session20/3-dec-compact8: bf16 256 MiB +10%, 1-4 GiB +3-5%, fp16 and fp8 1 GiB +5%). Not yet measured:
//   64-256 MiB, budgets under 132 SMs.
inline int uzip_dec_kernel(bool fused, int forced, int dtypeHint, uint64_t dstCapacity, uint32_t budget, uint32_t sms,
                           uint64_t oneRoundWarps) {
  if (fused) return UZIP_DEC_FUSED;
  if (forced >= 0) return UZIP_DEC_FORCED;
  if (dtypeHint < 0 || dtypeHint >= UZIP_DTYPE_COUNT) return UZIP_DEC_DEFAULT;
  const bool halfChip = 2ull * budget >= sms;
  if (dtypeHint == UZIP_DTYPE_FP32) return halfChip ? UZIP_DEC_WIDE : UZIP_DEC_DEFAULT;
  if (dtypeHint == UZIP_DTYPE_BYTES) return UZIP_DEC_DEFAULT;
  const uint64_t blocks = uzip_dec_blocks_estimate(dtypeHint, dstCapacity);
  if (3 * blocks > oneRoundWarps && blocks <= oneRoundWarps) return UZIP_DEC_ONE_ROUND;
  if (blocks > oneRoundWarps && halfChip) return UZIP_DEC_COMPACT;
  return UZIP_DEC_DEFAULT;
}
