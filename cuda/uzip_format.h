// The @uccl/zip wire format, version 1: constants, layout arithmetic and the arithmetic that the CPU
// reference codec and the GPU kernels share. docs/FORMAT.md is the prose version of this file; where the
// two disagree, this file is right and FORMAT.md is a bug.
//
// Everything here is plain integer arithmetic marked __host__ __device__, so the CPU codec (the oracle)
// and the CUDA kernels compute the same bytes by construction.
#pragma once

#include <stdint.h>
#include <stddef.h>
#include <math.h>

#include "uzip_cost_table.h"

#ifdef __CUDACC__
#define UZIP_HD __host__ __device__ __forceinline__
#else
#define UZIP_HD static inline
#endif

// ---------------------------------------------------------------------------------------------------
// Stream header (64 bytes, little-endian)
// ---------------------------------------------------------------------------------------------------
#define UZIP_MAGIC 0x50495A55u /* bytes 'U' 'Z' 'I' 'P' */
#define UZIP_VERSION 2u /* 2: ANS states in [2^15, 2^31) (1: [2^16, 2^32)) */
#define UZIP_HEADER_BYTES 64u

// Byte offsets of the header fields.
#define UZIP_H_MAGIC 0        /* u32 */
#define UZIP_H_VERSION 4      /* u8  */
#define UZIP_H_DTYPE 5        /* u8  */
#define UZIP_H_FLAGS 6        /* u8  */
#define UZIP_H_LOG2BLOCK 7    /* u8  elements per block = 1 << log2 */
#define UZIP_H_COUNT 8        /* u64 number of elements */
#define UZIP_H_TOTAL 16       /* u64 total stream bytes, header included */
#define UZIP_H_NBLOCKS 24     /* u32 */
#define UZIP_H_CHECKSUM 28    /* u32 checksum of the original bytes (0 when the flag is clear) */
#define UZIP_H_REM_OFFSET 32  /* u64 offset of the separate remainder plane (split layout), else 0 */
#define UZIP_H_DIR_OFFSET 40  /* u64 offset of the block directory */
#define UZIP_H_PAYLOAD 48     /* u64 offset of the first block payload */
#define UZIP_H_CHECK 56       /* u32 uzip_header_check() of bytes 0..55 */
#define UZIP_H_RESERVED 60    /* u32 zero */

// Header flags.
#define UZIP_FLAG_CHECKSUM 0x01u /* the checksum field holds uzip_checksum of the original bytes */
#define UZIP_FLAG_SPLIT 0x02u    /* split layout: the remainder plane is stored raw, whole, at offset 64 */
#define UZIP_FLAG_LANES 0x04u    /* symbol planes in lane streams (FORMAT.md "Lane streams", lanes_format.h); needs SPLIT */
#define UZIP_FLAG_PAIRS 0x08u    /* bf16/fp32 symbol planes coded two elements a symbol (FORMAT.md "Pair coding", pairs_format.h) */
#define UZIP_FLAG_LEAN 0x10u     /* ANS tables in range form where smaller; split layout: seeded lanes (FORMAT.md "Lean sections") */
#define UZIP_FLAGS_KNOWN (UZIP_FLAG_CHECKSUM | UZIP_FLAG_SPLIT | UZIP_FLAG_LANES | UZIP_FLAG_PAIRS | UZIP_FLAG_LEAN)

// Block size: 2^log2 elements per block; the encoder default is 2^14 = 16384 (but see
// uzip_default_log2_block: smaller tensors of bf16 and fp32 get 2^13).
#define UZIP_LOG2_BLOCK_MIN 10u
#define UZIP_LOG2_BLOCK_MAX 16u
#define UZIP_LOG2_BLOCK_DEFAULT 14u
#define UZIP_LOG2_BLOCK_SMALL 13u
/* uzip_default_lean_log2: split bf16 / fp32 up to UZIP_LEAN12_MAX_COUNT elements in lean sections at 2^12, then
   split bf16 / fp32 and (from the first element) fp16 up to UZIP_LEAN13_MAX_COUNT at 2^13 */
#define UZIP_LOG2_BLOCK_DEFAULT_LEAN 12u
#define UZIP_LOG2_BLOCK_DEFAULT_LEAN13 13u
#define UZIP_LEAN12_MAX_COUNT (1ull << 23)
#define UZIP_LEAN13_MAX_COUNT (1ull << 24)
#define UZIP_SMALL_TENSOR_BYTES (16ull << 20)
#define UZIP_LOG2_BLOCK_LARGE 15u
#define UZIP_LARGE_TENSOR_ELEMS (1ull << 30)

// ---------------------------------------------------------------------------------------------------
// Data types. Each element is rotated left by one bit inside its own width (so the sign moves to bit 0
// and the exponent to the top); the top byte of the rotated value is the "symbol" (the exponent field,
// plus the top mantissa bits where the exponent is narrower than 8 bits), the low bytes are the
// "remainder" (the rest of the mantissa and the sign). One-byte types are symbols only.
// ---------------------------------------------------------------------------------------------------
enum uzip_dtype {
  UZIP_DTYPE_BYTES = 0,   // plain bytes: symbol = the byte, no rotation, no remainder
  UZIP_DTYPE_BF16 = 1,    // symbol = 8 exponent bits;            remainder 1 byte (sign + 7 mantissa)
  UZIP_DTYPE_FP16 = 2,    // symbol = 5 exponent + 3 mantissa bits; remainder 1 byte (sign + 7 mantissa)
  UZIP_DTYPE_FP32 = 3,    // symbol = 8 exponent bits;            remainder 3 bytes (sign + 23 mantissa)
  UZIP_DTYPE_FP8E4M3 = 4, // symbol = the whole byte; no remainder
  UZIP_DTYPE_FP8E5M2 = 5, // symbol = the whole byte; no remainder
  UZIP_DTYPE_COUNT = 6
};

// Bytes per element.
UZIP_HD uint32_t uzip_dtype_width(uint32_t dtype) {
  return dtype == UZIP_DTYPE_FP32 ? 4u : (dtype == UZIP_DTYPE_BF16 || dtype == UZIP_DTYPE_FP16) ? 2u : 1u;
}

// The block size asked for with log2Block 0 (every entry point: CPU, GPU, size bound). A GPU codes a block
// on one warp, whose ANS chain is one step per 32 symbols, so a tensor too small to fill the chip takes
// about one block's latency: 2^13 blocks halve it (measured on an H200, bf16: 16 MiB 61 -> 47 us to
// compress, 66 -> 44 us to decompress; bench/results/h200-2026-11-30T2050-session5). It costs ratio
// through one more table and final states per 2^14 elements: +0.0055 on Gaussian bf16 (0.6647 -> 0.6702),
// +0.003 on fp32, but +0.01 to +0.03 on fp16 and fp8, whose symbols carry mantissa bits (bigger tables), so
// only bf16 and fp32 (symbol = the 8-bit exponent) take it, and only up to 16 MiB: above that the chip
// is full and 2^14 was as fast or faster (64 MiB bf16: 123 vs 129 us to compress).
// fp8 (e4m3, e5m2) and bf16 tensors of 2^30 elements and more take 2^15. fp8: half the tables of a symbol plane
// whose table is large (Gaussian 0.6767 -> 0.6722, real weights 0.8055 -> 0.8006), and on an H200, with the
// encoder's kernels for two-segment blocks, compression 0.442 / 0.447 -> 0.451 / 0.454 TB/s and decompression
// 0.796 / 0.812 -> 0.846 / 0.885 at 1 / 4 GiB (bench/results/h200-2026-12-04T0430-session28/4-revseg-outofline,
// 5-rev-kernels); e5m2 alike (1 GiB 0.446 / 0.799 -> 0.452 / 0.847, h200-2026-12-04T0950-session29/
// 1-histrare-ncu). bf16 (2 GiB and more), with session 29's encoder: split layout 2 GiB 0.977 / 1.520 ->
// 0.969-0.974 / 1.545-1.551, 4 GiB 0.981 / 1.538 -> 0.993-0.996 / 1.597, default layout 2 GiB 0.773 / 1.515
// -> 0.796 / 1.555, 4 GiB 0.778 / 1.541 -> 0.802 / 1.602, ratio 0.6647 -> 0.6636 (h200-2026-12-04T1345-session30/
// 4-blocks15). Not below: bf16 1 GiB split compresses 1% slower at 2^15, 256 MiB decodes 14% slower (1.3
// rounds of 2^15 blocks); fp16 compresses 1-2% slower at 2^15 from 1 GiB (decodes 1-5% faster) and fp32 5-6%
// slower, so they keep 2^14. Lane streams keep at most 2^14 (uzipCheckCodecArgs).
UZIP_HD uint32_t uzip_default_log2_block(uint64_t count, uint32_t dtype) {
  const bool exponentSymbols = dtype == UZIP_DTYPE_BF16 || dtype == UZIP_DTYPE_FP32;
  if (exponentSymbols && count * uzip_dtype_width(dtype) <= UZIP_SMALL_TENSOR_BYTES) return UZIP_LOG2_BLOCK_SMALL;
  const bool largeBlocks = dtype == UZIP_DTYPE_FP8E4M3 || dtype == UZIP_DTYPE_FP8E5M2 || dtype == UZIP_DTYPE_BF16;
  if (largeBlocks && count >= UZIP_LARGE_TENSOR_ELEMS) return UZIP_LOG2_BLOCK_LARGE;
  return UZIP_LOG2_BLOCK_DEFAULT;
}

// The default coding of a split-layout bf16 or fp32 tensor of at most UZIP_LEAN12_MAX_COUNT elements (2^13-element
// default blocks up to 16 MiB, and fp32 to 32 MiB): lean sections (FORMAT.md "Lean sections") in blocks of 2^12,
// when the caller left both the block size and the coding to the library (log2Block 0, none of the lean, lanes and
// pairs flags).
// Same ratio as 2^13 blocks (CPU codec, split layout, 1-16 MiB: Gaussian bf16 0.6703 against 0.6702-0.6704,
// uniform 0.6369-0.6370 both, real weights 0.6912-0.6986 against 0.6916-0.6984, fp32 within 0.0003; bench/results/
// cpu-2026-12-05-session42), and twice the blocks for a GPU's small calls, whose time is one block's latency (H100,
// bf16 split 1 MiB compressed in 19.4-19.7 us back to back against 23.4-23.5, decompressed through the default
// entry in 22.6-22.9 against 31.5-31.7: bench/results/h100-2026-12-06-session42).
// Split fp16 tensors of at most 16 MiB (default block 2^14) take lean sections at 2^13 (session 43): half the
// blocks' latency for 0.5-0.6% more bytes (CPU codec, 1-16 MiB: Gaussian 0.8515 -> 0.8559, uniform 0.8231 ->
// 0.8282, real weights 0.8695-0.8761 -> 0.8746-0.8810; lean 2^12 would cost 2%; bench/results/
// cpu-2026-12-06-session43), as bf16 took 2^13 blocks for +0.0055 in session 5. Measured on an H100 (session 44,
// bench/results/h100-2026-12-06-session44/1-fp16-lean13): 1 MiB compressed in 27.7-28.0 us back to back against
// 40.1-40.2, decompressed in 33.6-33.8 against 51.6-51.8; 16 MiB 37.4-37.7 / 37.4-37.8 against 47.6 / 54.7. At
// 64 MiB lean 2^13 decodes slower than the default coding (0.77 against 0.88 TB/s).
// Since session 45 (branch exp/s44-lean-range, merged): past that, in elements, lean 2^12 for bf16 / fp32 up to
// 2^23 and lean 2^13 for all three up to 2^24, so that a call on the whole chip stays within about one round of
// ~2048 blocks (H100, session 44, bench/results/h100-2026-12-06-session44/5-lean-range, streams forced by options:
// bf16 split 24 MiB 0.43 / 0.41 -> 0.52 / 0.57 TB/s, 32 MiB 0.52 / 0.54 -> 0.55-0.57 / 0.68-0.71; fp16 24 MiB 0.38 / 0.39 ->
// 0.45 / 0.52; fp32 24-32 MiB at lean 2^12 0.45-0.53 / 0.40-0.53 -> 0.58-0.62 / 0.63-0.74, 48-64 MiB at lean
// 2^13 +3-15%; bf16 lean 2^13 has the default's ratio, 0.6648 / 0.6647, fp32 lean 2^12 +0.3% of bytes), for 5-13%
// under budgets of 16-32 SMs (6-lean-range-budgets), as the rule's smaller sizes trade (11-strict-budget). The
// rule itself against the previous one in one call (H100, session 45, bench/results/h100-2026-12-06-session45/
// 1-lean-range): 24-48 MiB 1.1-1.6x on the whole chip, 16 MiB and 48-96 MiB bf16 / fp16 level.
// Returns the lean block size (log2) of the default coding, or 0 where the default coding is not lean.
UZIP_HD uint32_t uzip_default_lean_log2(uint64_t count, uint32_t dtype, uint32_t flags) {
  const uint32_t coding = UZIP_FLAG_LEAN | UZIP_FLAG_LANES | UZIP_FLAG_PAIRS;
  if (!(flags & UZIP_FLAG_SPLIT) || (flags & coding)) return 0u;
  if (dtype != UZIP_DTYPE_BF16 && dtype != UZIP_DTYPE_FP16 && dtype != UZIP_DTYPE_FP32) return 0u;
  if (dtype != UZIP_DTYPE_FP16 && count <= UZIP_LEAN12_MAX_COUNT) return UZIP_LOG2_BLOCK_DEFAULT_LEAN;
  if (count <= UZIP_LEAN13_MAX_COUNT) return UZIP_LOG2_BLOCK_DEFAULT_LEAN13;
  return 0u;
}
UZIP_HD bool uzip_default_lean(uint64_t count, uint32_t dtype, uint32_t flags) {
  return uzip_default_lean_log2(count, dtype, flags) != 0u;
}

// Bytes of remainder per element (width - 1 for multi-byte types, 0 for one-byte types).
UZIP_HD uint32_t uzip_dtype_rem_width(uint32_t dtype) {
  uint32_t w = uzip_dtype_width(dtype);
  return w > 1u ? w - 1u : 0u;
}

// Split one element (given as its little-endian bits in the low `width` bytes of v) into symbol and
// remainder. Two-byte and four-byte types are rotated left by one bit within their width.
UZIP_HD uint32_t uzip_rotl1(uint32_t v, uint32_t width) {
  return width == 4u ? ((v << 1) | (v >> 31)) : width == 2u ? (((v << 1) | (v >> 15)) & 0xFFFFu) : v;
}
UZIP_HD uint32_t uzip_rotr1(uint32_t v, uint32_t width) {
  return width == 4u ? ((v >> 1) | (v << 31)) : width == 2u ? (((v >> 1) | (v << 15)) & 0xFFFFu) : v;
}
// symbol = top byte of the rotated value; remainder = its low (width - 1) bytes.
UZIP_HD uint32_t uzip_symbol_of(uint32_t v, uint32_t width) {
  return uzip_rotl1(v, width) >> (8u * (width - 1u));
}
UZIP_HD uint32_t uzip_remainder_of(uint32_t v, uint32_t width) {
  uint32_t r = uzip_rotl1(v, width);
  return width == 4u ? (r & 0xFFFFFFu) : width == 2u ? (r & 0xFFu) : 0u;
}
UZIP_HD uint32_t uzip_join(uint32_t symbol, uint32_t remainder, uint32_t width) {
  return uzip_rotr1((symbol << (8u * (width - 1u))) | remainder, width);
}

// ---------------------------------------------------------------------------------------------------
// Blocks, directory, payload
// ---------------------------------------------------------------------------------------------------
// Plane modes (4 bits each in a directory entry).
#define UZIP_MODE_RAW 0u      /* the plane's bytes verbatim */
#define UZIP_MODE_CONST 1u    /* every element's plane value is the same: one value stored */
#define UZIP_MODE_ANS 2u      /* rANS-coded with the block's own frequency table */
#define UZIP_MODE_EXTERNAL 3u /* remainder kept in the split layout's separate plane (not in the payload) */
#define UZIP_MODE_NONE 4u     /* no remainder plane (one-byte types) */
#define UZIP_MODE_LANES 5u    /* symbol plane in lane streams (LANES streams only, lanes_format.h) */
#define UZIP_MODE_PAIRS 6u    /* symbol plane coded by element pairs (PAIRS streams only, pairs_format.h) */

// Directory entry (u64): bits 0..39 = end offset of the block's payload relative to the payload base
// (exclusive; the block starts where the previous one ends, block 0 at 0); bits 40..47 zero;
// bits 48..51 symbol-plane mode; bits 52..55 remainder-plane mode; bits 56..63 zero.
#define UZIP_DIR_END_MASK 0xFFFFFFFFFFull
UZIP_HD uint64_t uzip_dir_entry(uint64_t end, uint32_t sym_mode, uint32_t rem_mode) {
  return end | ((uint64_t)sym_mode << 48) | ((uint64_t)rem_mode << 52);
}
UZIP_HD uint64_t uzip_dir_end(uint64_t e) { return e & UZIP_DIR_END_MASK; }
UZIP_HD uint32_t uzip_dir_sym_mode(uint64_t e) { return (uint32_t)(e >> 48) & 15u; }
UZIP_HD uint32_t uzip_dir_rem_mode(uint64_t e) { return (uint32_t)(e >> 52) & 15u; }
UZIP_HD int uzip_dir_reserved_ok(uint64_t e) { return (e & 0xFF00FF0000000000ull) == 0; }

// Every section (header, split remainder plane, directory, each plane section of each payload) starts
// on a 16-byte boundary and is padded with zero bytes to a multiple of 16.
#define UZIP_ALIGN 16u
UZIP_HD uint64_t uzip_pad16(uint64_t x) { return (x + 15u) & ~(uint64_t)15u; }

UZIP_HD uint64_t uzip_nblocks(uint64_t n, uint32_t log2_block) {
  return (n + ((uint64_t)1 << log2_block) - 1u) >> log2_block;
}
// Elements in block b (the last block may be short).
UZIP_HD uint32_t uzip_block_len(uint64_t n, uint32_t log2_block, uint64_t b) {
  uint64_t start = b << log2_block, rest = n - start, full = (uint64_t)1 << log2_block;
  return (uint32_t)(rest < full ? rest : full);
}
UZIP_HD uint64_t uzip_rem_offset(uint32_t flags) {
  return (flags & UZIP_FLAG_SPLIT) ? UZIP_HEADER_BYTES : 0u;
}

// A plane is coded in segments of at most this many symbols (see the rANS section below).
#define UZIP_ANS_SEG_SYMS 16384u /* symbols per segment: 512 steps of 32 lanes */

// Seeded segments (FORMAT.md "Lean sections"; LEAN streams in the split layout, dtypes with a remainder).
// A segment of the symbol plane whose length is a multiple of 32 and at least 32 * E carries the
// remainders of its last E steps (E = uzip_seed_steps: 32 * E elements, each lane its own E) in its lanes'
// initial states, x0 = 2^k + seed with k = uzip_seed_bits (16: two 1-byte remainders, 24: one fp32
// remainder), instead of 2^15. The decoder gets them back from the states it ends on. Those remainder
// bytes leave the split remainder plane; a block whose symbol plane is RAW or CONST keeps them in a seed
// section after its symbol section. The state starts ~1.5 bits higher and carries k: ~14.5 bits a lane.
UZIP_HD int uzip_seeded_stream(uint32_t dtype, uint32_t flags) {
  return (flags & UZIP_FLAG_LEAN) && (flags & UZIP_FLAG_SPLIT) && uzip_dtype_width(dtype) > 1u;
}
// The steps a seeded segment's lanes carry (E), the seed's bits (k), a segment's seed bytes (64 for two-byte
// types, 96 for fp32: multiples of 16), and whether a segment of len symbols is seeded; by dtype, and by
// element width as constexpr for the GPU kernels' Seeds<W> (cpu_codec_test checks both forms agree; the dtype
// forms keep their own arithmetic, as routing them through the width forms changed 16 kernels' machine code).
UZIP_HD constexpr uint32_t uzip_seed_steps_w(uint32_t width) { return width == 4u ? 1u : 2u; }
UZIP_HD constexpr uint32_t uzip_seed_bits_w(uint32_t width) {
  return 8u * uzip_seed_steps_w(width) * (width > 1u ? width - 1u : 0u);
}
UZIP_HD constexpr uint32_t uzip_seg_seed_bytes_w(uint32_t width) {
  return 32u * uzip_seed_steps_w(width) * (width > 1u ? width - 1u : 0u);
}
UZIP_HD constexpr bool uzip_seg_seeded_w(uint32_t len, uint32_t width) {
  return (len & 31u) == 0 && len >= 32u * uzip_seed_steps_w(width);
}
UZIP_HD uint32_t uzip_seed_steps(uint32_t dtype) { return uzip_seed_steps_w(uzip_dtype_width(dtype)); }
UZIP_HD uint32_t uzip_seed_bits(uint32_t dtype) { return 8u * uzip_seed_steps(dtype) * uzip_dtype_rem_width(dtype); }
UZIP_HD uint32_t uzip_seg_seed_bytes(uint32_t dtype) { return 32u * uzip_seed_steps(dtype) * uzip_dtype_rem_width(dtype); }
UZIP_HD int uzip_seg_seeded(uint32_t len, uint32_t dtype) {
  return (len & 31u) == 0 && len >= 32u * uzip_seed_steps(dtype);
}
// Seed bytes of a block of m elements (0 unless uzip_seeded_stream): its segments of 16384 and the last.
UZIP_HD uint32_t uzip_block_seed_bytes(uint32_t m, uint32_t dtype, uint32_t flags) {
  if (!uzip_seeded_stream(dtype, flags)) return 0;
  const uint32_t full = m / UZIP_ANS_SEG_SYMS, rest = m % UZIP_ANS_SEG_SYMS;
  return (full + (rest && uzip_seg_seeded(rest, dtype) ? 1u : 0u)) * uzip_seg_seed_bytes(dtype);
}
// Where element k of a seeded stream's block of m elements keeps its remainder (width 2 or 4): in the split
// plane at byte *off of the block's part (returns 1), or, for a seeded segment's last 32 E elements, in the lanes'
// states and the seed section, at byte *off of the block's seed bytes (returns 0). The GPU kernels' address
// arithmetic (tests/native/cpu_codec_test.cc checks it against the CPU codec's bytes).
UZIP_HD int uzip_seeded_place(uint32_t k, uint32_t m, uint32_t width, uint32_t* off) {
  const uint32_t rw = width - 1u, E = width == 4u ? 1u : 2u, segSeed = 32u * E * rw;
  const uint32_t sg = k / UZIP_ANS_SEG_SYMS, start = sg * UZIP_ANS_SEG_SYMS;
  const uint32_t len = m - start < UZIP_ANS_SEG_SYMS ? m - start : UZIP_ANS_SEG_SYMS;
  if ((len & 31u) == 0 && len >= 32u * E && k - start >= len - 32u * E) {
    *off = sg * segSeed + (k - start - (len - 32u * E)) * rw;
    return 0;
  }
  *off = k * rw - sg * segSeed;
  return 1;
}
// The inverse for the seed bytes: byte i of a block's seed bytes is byte *j of element *k's remainder.
UZIP_HD void uzip_seed_byte_elem(uint32_t i, uint32_t m, uint32_t width, uint32_t* k, uint32_t* j) {
  const uint32_t rw = width - 1u, E = width == 4u ? 1u : 2u, segSeed = 32u * E * rw;
  const uint32_t sg = i / segSeed, r = i - sg * segSeed, start = sg * UZIP_ANS_SEG_SYMS;
  const uint32_t len = m - start < UZIP_ANS_SEG_SYMS ? m - start : UZIP_ANS_SEG_SYMS;
  *k = start + len - 32u * E + r / rw;
  *j = r % rw;
}
// Bytes of the split remainder plane (unpadded): every remainder byte but the seed bytes.
UZIP_HD uint64_t uzip_split_plane_bytes(uint64_t n, uint32_t dtype, uint32_t flags, uint32_t log2_block) {
  const uint64_t all = n * uzip_dtype_rem_width(dtype);
  if (!uzip_seeded_stream(dtype, flags) || n == 0) return all;
  const uint64_t nb = uzip_nblocks(n, log2_block);
  const uint32_t last = uzip_block_len(n, log2_block, nb - 1u);
  return all - (nb - 1u) * uzip_block_seed_bytes(1u << log2_block, dtype, flags) -
         uzip_block_seed_bytes(last, dtype, flags);
}
// Where block b's part of the split remainder plane starts, relative to the plane (every block before it
// is full).
UZIP_HD uint64_t uzip_split_plane_block_offset(uint64_t b, uint32_t dtype, uint32_t flags, uint32_t log2_block) {
  const uint32_t full = 1u << log2_block;
  return b * ((uint64_t)full * uzip_dtype_rem_width(dtype) - uzip_block_seed_bytes(full, dtype, flags));
}
UZIP_HD uint64_t uzip_dir_offset(uint64_t n, uint32_t dtype, uint32_t flags, uint32_t log2_block) {
  return UZIP_HEADER_BYTES +
         ((flags & UZIP_FLAG_SPLIT) ? uzip_pad16(uzip_split_plane_bytes(n, dtype, flags, log2_block)) : 0u);
}
UZIP_HD uint64_t uzip_payload_offset(uint64_t n, uint32_t dtype, uint32_t flags, uint32_t log2_block) {
  return uzip_dir_offset(n, dtype, flags, log2_block) + uzip_pad16(8u * uzip_nblocks(n, log2_block));
}

// The published bound: a stream of n elements never exceeds this many bytes. A plane section is only
// ever stored in a mode smaller than RAW, so a payload is at most its raw planes padded to 16 each.
// That is raw bytes + header + directory + 30 per block (at most 0.2% for bf16 at the default block).
UZIP_HD uint64_t uzip_max_compressed_size(uint64_t n, uint32_t dtype, uint32_t flags, uint32_t log2_block) {
  uint64_t nb = uzip_nblocks(n, log2_block);
  uint64_t per_block = 2u * (UZIP_ALIGN - 1u);  // padding of the two plane sections
  return uzip_payload_offset(n, dtype, flags, log2_block) + n * uzip_dtype_width(dtype) + nb * per_block;
}

// ---------------------------------------------------------------------------------------------------
// rANS: 32-bit state in [2^15, 2^31), 16-bit renormalization words, frequencies out of 2^11.
// A plane is cut into segments of at most 16384 symbols; a segment is coded by 32 interleaved lanes:
// symbol k of the segment belongs to lane k % 32 and step k / 32. The decoder walks steps 0..T-1 and,
// inside a step, lanes 0..31: decode, then if the state fell under 2^15 read the next 16-bit word.
// (Format version 1 kept states in [2^16, 2^32); under 2^31 an encoder divides by a frequency with one
// multiply-high and a shift, uzip_ans_enc_entry, instead of a reciprocal that needs a correction.)
// The encoder walks the same in reverse (steps T-1..0, lanes 31..0): renormalize, then encode, and its
// words are stored in the order the decoder reads them.
// ---------------------------------------------------------------------------------------------------
#define UZIP_ANS_PROB_BITS 11u
#define UZIP_ANS_M (1u << UZIP_ANS_PROB_BITS) /* 2048: frequencies sum to this */
#define UZIP_ANS_L (1u << 15)                 /* lower bound of the state */
#define UZIP_ANS_X_END (1u << 31)             /* states stay under this */
#define UZIP_ANS_LANES 32u

UZIP_HD uint32_t uzip_ans_nseg(uint64_t plane_len) {
  return (uint32_t)((plane_len + UZIP_ANS_SEG_SYMS - 1u) / UZIP_ANS_SEG_SYMS);
}

// The renormalization bound of a symbol of frequency freq at a precision of `bits`: the encoder sheds a
// word first when x >= freq << (31 - bits), so that the coded state stays under 2^31.
UZIP_HD uint32_t uzip_ans_bound(uint32_t freq, uint32_t bits) { return freq << (31u - bits); }

// Encoder step for one lane. Returns 1 and sets *word when a 16-bit word must be emitted (before the
// symbol is folded in). x must be in [2^15, 2^31); freq in [1, 2047]; cum + freq <= 2048. (freq = 2048
// only arises when one symbol fills the plane, which is coded CONST.)
// The step at a precision of `bits` (frequencies summing to 2^bits, freq < 2^bits; pair coding takes 12).
UZIP_HD int uzip_rans_encode(uint32_t* x, uint32_t freq, uint32_t cum, uint32_t bits, uint16_t* word) {
  uint32_t s = *x;
  int emit = 0;
  if (s >= uzip_ans_bound(freq, bits)) {
    *word = (uint16_t)(s & 0xFFFFu);
    s >>= 16;
    emit = 1;
  }
  uint32_t q = s / freq, r = s - q * freq;  // implementations may replace the division by an exact
  *x = (q << bits) + r + cum;                // reciprocal; the result must be this one
  return emit;
}
UZIP_HD int uzip_ans_encode(uint32_t* x, uint32_t freq, uint32_t cum, uint16_t* word) {
  return uzip_rans_encode(x, freq, cum, UZIP_ANS_PROB_BITS, word);
}

// The encoder's division without a correction step: for a renormalized state xs < 2^31 (every state of
// uzip_rans_encode after its shed: xs < freq << (31 - bits) <= 2^31),
//   q = umulhi(xs, rcp) >> shift = floor(xs / f);  x' = xs + bias + q * cmpl,  cmpl = 2^bits - f
// with, for f >= 2 and t = ceil(log2 f): shift = t - 1, rcp = ceil(2^(31 + t) / f) < 2^32, bias = cum.
// Exact: rcp = 2^(31 + t) / f + e (0 <= e < 1), so umulhi(xs, rcp) >> (t - 1) = floor(xs / f + xs e /
// 2^(31 + t)) and xs e / 2^(31 + t) < 2^-t <= 1 / f, less than floor(xs / f) + 1 - xs / f (at least 1 / f).
// For f = 1: rcp = 2^32 - 1, shift = 0, so q = xs - 1, and bias = cum + 2^bits - 1 makes up the missing
// cmpl + 1. rcp is computed in double: 2^(31 + t) / f is correctly rounded to within 2^-21 of the exact
// quotient (< 2^32), which is an integer or at least 1 / f >= 2^-12 from one, so its ceiling is exact.
// The entry packs bias << 5 | shift (a wrap-mode funnel shift reads the low 5 bits; bias < 2^13).
UZIP_HD uint32_t uzip_ceil_log2(uint32_t f) {  // f >= 2
#ifdef __CUDA_ARCH__
  return 32u - (uint32_t)__clz(f - 1u);
#else
  return 32u - (uint32_t)__builtin_clz(f - 1u);
#endif
}
struct uzip_ans_enc_sym {
  uint32_t rcp, cmpl, biasShift, bound;
};
UZIP_HD uzip_ans_enc_sym uzip_ans_enc_entry(uint32_t f, uint32_t cum, uint32_t bits) {
  uzip_ans_enc_sym e;
  e.cmpl = (1u << bits) - f;
  e.bound = uzip_ans_bound(f, bits);
  if (f < 2u) {
    e.rcp = 0xFFFFFFFFu;
    e.biasShift = (cum + (1u << bits) - 1u) << 5;
  } else {
    const uint32_t t = uzip_ceil_log2(f);
    e.rcp = (uint32_t)ceil((double)(1ull << (31u + t)) / (double)f);
    e.biasShift = cum << 5 | (t - 1u);
  }
  return e;
}
// One encoder step through an entry (uzip_rans_encode's result for xs < 2^31 after the shed).
UZIP_HD uint32_t uzip_ans_enc_next(uint32_t xs, const uzip_ans_enc_sym& e) {
  const uint32_t q = (uint32_t)(((uint64_t)xs * e.rcp) >> 32) >> (e.biasShift & 31u);
  return xs + (e.biasShift >> 5) + q * e.cmpl;
}
// Decoder step, given the symbol's freq and cum found from slot = x & (M - 1). Returns 1 when the
// caller must now read one word w and set x = (x << 16) | w.
UZIP_HD int uzip_rans_decode(uint32_t* x, uint32_t freq, uint32_t cum, uint32_t bits) {
  uint32_t s = *x;
  s = freq * (s >> bits) + (s & ((1u << bits) - 1u)) - cum;
  *x = s;
  return s < UZIP_ANS_L;
}
UZIP_HD int uzip_ans_decode(uint32_t* x, uint32_t freq, uint32_t cum) {
  return uzip_rans_decode(x, freq, cum, UZIP_ANS_PROB_BITS);
}

// Frequency normalization: counts of 256 symbols over a plane of `total` symbols (total >= 1) to
// frequencies summing to 2048, every present symbol getting at least 1. Deterministic, integer only:
//   f[s] = c[s] ? max(1, floor(c[s] * 2048 / total)) : 0
//   d = 2048 - sum(f)
//   if d >= 0: f[a] += d where a = the symbol with the largest count (lowest symbol on ties)
//   while d < 0: b = the symbol with the largest f (lowest symbol on ties);
//                k = min(-d, f[b] - 1); f[b] -= k; d += k
// (d < 0 implies some f > 1 because at most 256 symbols have f = 1, so the loop ends.)
// The last step of the normalizations (this one and uzip_lanes_normalize): d = 2048 - sum(f); d >= 0 goes
// to best_c_sym (the largest count, lowest on ties); while d < 0 the symbol of the largest f (lowest on
// ties) gives min(-d, f - 1).
// Over n frequencies (pair coding settles its 16 code frequencies and 256 pair frequencies alike).
UZIP_HD void uzip_settle_freqs_n(uint32_t* freqs, uint32_t n, int32_t d, uint32_t best_c_sym) {
  if (d >= 0) {
    freqs[best_c_sym] += (uint32_t)d;
    return;
  }
  while (d < 0) {
    uint32_t best_f = 0, b = 0;
    for (uint32_t s = 0; s < n; s++)
      if (freqs[s] > best_f) { best_f = freqs[s]; b = s; }
    uint32_t k = (uint32_t)(-d) < best_f - 1u ? (uint32_t)(-d) : best_f - 1u;
    freqs[b] -= k;
    d += (int32_t)k;
  }
}
UZIP_HD void uzip_settle_freqs(uint32_t* freqs, int32_t d, uint32_t best_c_sym) {
  uzip_settle_freqs_n(freqs, 256u, d, best_c_sym);
}
UZIP_HD void uzip_normalize_freqs(const uint32_t* counts, uint32_t total, uint32_t* freqs) {
  int32_t sum = 0;
  uint32_t best_c = 0, best_c_sym = 0;
  for (uint32_t s = 0; s < 256u; s++) {
    uint32_t c = counts[s], f = 0;
    if (c) {
      f = (uint32_t)(((uint64_t)c * UZIP_ANS_M) / total);
      if (f == 0) f = 1;
    }
    if (c > best_c) { best_c = c; best_c_sym = s; }
    freqs[s] = f;
    sum += (int32_t)f;
  }
  uzip_settle_freqs(freqs, (int32_t)UZIP_ANS_M - sum, best_c_sym);
}

// Estimated ANS payload of a plane, in 1/256 bit, from counts and normalized frequencies: the encoder
// tries ANS only when (estimate_bits / 8 + table and segment overhead) < raw bytes. See FORMAT.md.
// The sum is over at most 65536 * 3 symbols of at most 2816 each: fits in 64 bits with room.
UZIP_HD uint64_t uzip_cost_bits256(const uint32_t* counts, const uint32_t* freqs, const uint16_t* cost) {
  uint64_t bits = 0;
  for (uint32_t s = 0; s < 256u; s++)
    if (counts[s]) bits += (uint64_t)counts[s] * cost[freqs[s] - 1u];
  return bits;
}

// Size in bytes of an ANS plane section's table: u16 K, u16 0, 32-byte presence bitmap, K u16 freqs,
// padded to 4.
UZIP_HD uint32_t uzip_ans_table_bytes(uint32_t nsym_present) {
  return (4u + 32u + 2u * nsym_present + 3u) & ~3u;
}
// A LEAN stream's table (FORMAT.md "Lean sections"): u8 lo, u8 hi (the smallest and largest present
// symbol), u16 K, then in range form (hi - lo + 1 <= K + 16) the hi - lo + 1 u16 frequencies of lo..hi (0
// for an absent symbol), else (bitmap form) the 32-byte bitmap and K u16 frequencies as above; padded to 4.
UZIP_HD int uzip_lean_range_form(uint32_t k, uint32_t lo, uint32_t hi) { return hi - lo + 1u <= k + 16u; }
UZIP_HD uint32_t uzip_lean_table_bytes(uint32_t k, uint32_t lo, uint32_t hi) {
  return uzip_lean_range_form(k, lo, hi) ? (4u + 2u * (hi - lo + 1u) + 3u) & ~3u : uzip_ans_table_bytes(k);
}
// Fixed bytes per segment: u32 word count + 32 u32 final states.
#define UZIP_ANS_SEG_HEADER_BYTES (4u + 4u * UZIP_ANS_LANES)

// The remainder plane's sample (FORMAT.md, "Choosing a mode" step 2), for every remainder plane (fp32's
// 3-byte remainders, bf16's and fp16's 1-byte ones): the remainder bytes of a block's first
// UZIP_REM_SAMPLE_ELEMS elements are counted first; when their cost, scaled to the whole plane, plus the
// table and segment headers is not below the raw size, the plane is RAW without counting the rest (the
// common case: mantissa bits are close to uniform, and counting them, one shared atomic per byte, held
// the GPU encoder down: fp32 ~10%, since 4845e20; two-byte types since session 7, whose stage clocks put
// the histogram pass of the default layout 15k cycles (of 195k a bf16 block) above the split layout's,
// bench/results/h200-2026-12-01T0050-session7/3-stages-layouts). Else the whole plane is counted.
#define UZIP_REM_SAMPLE_ELEMS 1024u
UZIP_HD int uzip_rem_sampled(uint32_t rem_width) { return rem_width == 3u || rem_width == 1u; }
// The estimate (FORMAT.md "Choosing a mode" step 3) a plane of planeBytes must be under to be ANS-coded:
// its raw size for a symbol plane; for a remainder plane 1/16 less (UZIP_REM_ANS_MARGIN_SHIFT, since
// session 12). A remainder plane that close to raw saves under 6% of its bytes (0.03% of the stream on
// the recognition model's weights), but a block with both planes ANS cost the GPU encoder ~5x a plain
// block's cycles, and every later block waits on it for its output offset: bf16 and fp32 weights compressed
// 2-3x slower than Gaussian data in the default layout, as fast in the split layout (which has no
// remainder modes), bench/results/h200-2026-12-01T2335-session12/2-weights.
#define UZIP_REM_ANS_MARGIN_SHIFT 4u
UZIP_HD uint64_t uzip_ans_est_limit(uint64_t planeBytes, int remainder) {
  return remainder ? planeBytes - (planeBytes >> UZIP_REM_ANS_MARGIN_SHIFT) : planeBytes;
}
// Is the remainder plane RAW by its sample? k: values present in the sample; bits256: the sample's
// uzip_cost_bits256 with frequencies normalized over its sampleBytes; planeBytes: the whole plane.
UZIP_HD int uzip_rem_sample_says_raw(uint32_t k, uint64_t bits256, uint64_t sampleBytes, uint64_t planeBytes) {
  const uint64_t scaled = (bits256 * planeBytes + 2048u * sampleBytes - 1u) / (2048u * sampleBytes);
  const uint64_t est =
      uzip_ans_table_bytes(k) + (uint64_t)uzip_ans_nseg(planeBytes) * UZIP_ANS_SEG_HEADER_BYTES + scaled;
  return est >= uzip_ans_est_limit(planeBytes, 1);
}

// ---------------------------------------------------------------------------------------------------
// Checksums (not cryptographic). fmix32 is MurmurHash3's finalizer, a bijection on 32 bits.
// ---------------------------------------------------------------------------------------------------
UZIP_HD uint32_t uzip_fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}
// The data checksum is order-free so that any number of threads can add up parts of it:
//   sum = Σ_j fmix32(w_j + j * 0x9E3779B9)   (mod 2^32) over the original bytes read as u32 little-
//         endian words w_j, j = 0 .. ceil(bytes / 4) - 1, the last word zero-padded;
//   checksum = fmix32(sum ^ lo32(bytes) ^ (hi32(bytes) * 0x27D4EB2F))
UZIP_HD uint32_t uzip_checksum_term(uint32_t word, uint64_t j) {
  return uzip_fmix32(word + (uint32_t)j * 0x9E3779B9u);
}
UZIP_HD uint32_t uzip_checksum_final(uint32_t sum, uint64_t bytes) {
  return uzip_fmix32(sum ^ (uint32_t)bytes ^ ((uint32_t)(bytes >> 32) * 0x27D4EB2Fu));
}
// Header check over bytes 0..55 read as 14 u32 little-endian words: h = 0; h = fmix32(h ^ w_i + i).
UZIP_HD uint32_t uzip_header_check(const uint32_t* words14) {
  uint32_t h = 0;
  for (uint32_t i = 0; i < 14u; i++) h = uzip_fmix32((h ^ words14[i]) + i);
  return h;
}
