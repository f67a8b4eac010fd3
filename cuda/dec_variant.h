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

// The smallest block of the default coding, in bytes (log2): bf16's (two-byte) lean blocks of small split calls
// (a caller's smaller log2Block makes more blocks: correct in any kernel, only slower past one round).
#define UZIP_DEC_LOG2_SMALLEST_BLOCK_BYTES (UZIP_LOG2_BLOCK_DEFAULT_LEAN + 1u)

// Blocks of a destination of dstCapacity bytes for a stream of dtype at its default block size (the
// encoder's uzip_default_log2_block): the host's estimate, as it cannot read the stream's header.
inline uint64_t uzip_dec_blocks_estimate(int dtype, uint64_t dstCapacity) {
  const uint64_t count = dstCapacity / uzip_dtype_width((uint32_t)dtype);
  return uzip_nblocks(count, uzip_default_log2_block(count, (uint32_t)dtype));
}

// fused: decode-reduce; forced: UZIP_GPU_DEC_VARIANT, or -1; dtypeHint: the caller's dtype, or -1;
// dstCapacity: the destination's bytes; budget: the SMs the call may use; sms: the device's;
// oneRoundWarps, defaultWarps: resident warps of the one-round and of the default kernel under the budget.
// - fp32 on at least half the chip: the wide kernel, +8-19% at 16 MiB-4 GiB on all 132 SMs of an H200, -5-7%
//   at 1 GiB under budgets of 8-32 SMs (bench/results/h200-2026-12-01T2045-session11/10-wide-checks); under
//   48-116 SMs (bench/results/h200-2026-12-01T2335-session12/1-next) the same at 48 and 64, +9-16% at 96 and
//   at 116 for 1 GiB, -6% at 116 for 256 MiB. Small fp32 calls too: on an H100 (session 44, bench/results/
//   h100-2026-12-06-session44/3-fp32-dec-kernel, two rounds) the one-round kernel forced decodes split and default
//   layout 64 KiB-16 MiB within 0.1-0.7 us of the wide one, and 64 MiB in 81-83 us against 71-72.
// - one- and two-byte types of at most one round of the one-round kernel's warps: it (bench/results/
//   h200-2026-12-01T2335-session12/1-next: bf16 and fp16 64 MiB +8-9%; from 1.2 rounds -0.5 to -2.5%). Session
//   12 took it from a third of a round; below that, since the small split calls code lean sections by default,
//   it decodes 1-3 us faster too (bench/results/h200-2026-12-06-session43/1-dec-rule: bf16 split 1 MiB 26.2 ->
//   24.5 us, default layout 35.7 -> 33.3, fp16 and fp8 1 MiB -2 and -1 us; 2-dec-rule-budgets: level or better
//   under 8-32 SMs).
// - no dtype: the one-round kernel while the destination holds at most one round of the smallest default
//   block (8 KiB: bf16's lean 2^12 elements), so that a call of more than one round never takes it (same
//   runs: bf16 split 16 MiB 32.0 -> 30.1 us, fp32 split 1 MiB 27.2 -> 26.2); the default kernel above.
// - from two rounds of the default kernel's warps, at any budget: the compact layout, whose 24 warps a SM
//   each run slower than the default's 20 but gain overall (bench/results/h200-2026-12-03T0950-session21/
//   1-dec-rule: bf16 256 MiB +9%, 1-4 GiB +4-5%, fp16 256 MiB +12%, fp8 +5%, bf16 under 32 and 64 SMs
//   +3-4%). Nearer one round its last round is the emptier one: bf16 128 MiB (1.3 of its rounds, 1.55 of
//   the default's) lost 5% there. The border, measured on both sides (2-dec-rule2): 160 MiB of bf16 (5120
//   blocks) default 1.166 TB/s against 1.139 compact, 192 MiB (6144) 1.079 against 1.205.
inline int uzip_dec_kernel(bool fused, int forced, int dtypeHint, uint64_t dstCapacity, uint32_t budget, uint32_t sms,
                           uint64_t oneRoundWarps, uint64_t defaultWarps) {
  if (fused) return UZIP_DEC_FUSED;
  if (forced >= 0) return UZIP_DEC_FORCED;
  if (dtypeHint < 0 || dtypeHint >= UZIP_DTYPE_COUNT)
    return (dstCapacity >> UZIP_DEC_LOG2_SMALLEST_BLOCK_BYTES) <= oneRoundWarps ? UZIP_DEC_ONE_ROUND : UZIP_DEC_DEFAULT;
  if (dtypeHint == UZIP_DTYPE_FP32) return 2ull * budget >= sms ? UZIP_DEC_WIDE : UZIP_DEC_DEFAULT;
  if (dtypeHint == UZIP_DTYPE_BYTES) return UZIP_DEC_DEFAULT;
  const uint64_t blocks = uzip_dec_blocks_estimate(dtypeHint, dstCapacity);
  if (blocks <= oneRoundWarps) return UZIP_DEC_ONE_ROUND;
  if (blocks >= 2 * defaultWarps) return UZIP_DEC_COMPACT;
  return UZIP_DEC_DEFAULT;
}

// Large fp32 decodes through fp32's wide kernel built without the byte kernels' out-of-line lean path (session
// 42), paired with the lean kernel as uzipGpuDecompressEither pairs them (each leaves the other's streams).
// Session 50, on an H100, two rounds each: main's fp32 split decode ran 1.6-2.7% under session 35's build at 1
// and 4 GiB while bf16 was level (bench/results/h100-2026-12-07-session50/3-fp32-decode-ab), and the wide
// kernel's SASS had grown from 49k to 87k instructions with the lean path beside the same coding loops. Apart
// (4-wide-apart): 1 GiB 1.395-1.397 -> 1.416-1.419 TB/s, 4 GiB 1.444 -> 1.482 (session 35's figure), default
// layout 1 GiB 1.399 -> 1.417; forced below the border the second launch costs more (64 MiB 0.950 -> 0.915,
// 256 MiB 1.279 -> 1.269). forced: UZIP_GPU_DEC_WIDE_APART (1 always where the wide kernel is chosen, 0 never),
// or -1: from UZIP_DEC_WIDE_APART_MIN_BYTES of destination (the default encoder writes no lean stream past 2^24
// elements, 64 MiB of fp32).
constexpr uint64_t UZIP_DEC_WIDE_APART_MIN_BYTES = 1ull << 30;
inline bool uzip_dec_wide_apart(int forced, uint64_t dstCapacity) {
  if (forced >= 0) return forced == 1;
  return dstCapacity >= UZIP_DEC_WIDE_APART_MIN_BYTES;
}

// The lean decoder's layout for one call (uzipGpuDecompressLean, and uzipGpuDecompressEither's first kernel):
// true for the compact lean kernel. forced: UZIP_GPU_LEAN_DEC_VARIANT (0 the lean kernel, 1 the compact one), or
// -1; leanWarps: the lean kernel's resident warps under the call's SM budget. From two rounds of those warps
// (blocks estimated as 2-byte elements in 2^13 blocks: dstCapacity >> 14), as the byte decoders take the compact
// layout from two rounds. On an H200, bf16 split lean streams (bench/results/h200-2026-12-05-session40/
// 1-either-leancompact, two rounds): at the default blocks 1 GiB 1.203-1.204 -> 1.360-1.361 TB/s, at 2^12
// blocks 256 MiB 0.845-0.846 -> 0.939-0.943 and 1 GiB 0.886-0.887 -> 0.995; 256 MiB at the default blocks (3.9
// rounds of 2^14) 1.130-1.132 -> 1.112-1.117, the one size measured where it loses (the host cannot see the
// stream's block size, and 2^12 blocks gain 11% at the same size).
inline bool uzip_lean_dec_compact(int forced, uint64_t dstCapacity, uint64_t leanWarps) {
  if (forced >= 0) return forced == 1;
  return (dstCapacity >> 14) >= 2 * leanWarps;
}
