// Lane streams: the symbol-plane coding of streams with the LANES flag (FORMAT.md "Lane streams").
// Shared by the CPU reference (cpu_lanes.cc) and the GPU kernels (gpu_lanes.cu), so both emit the
// same bytes.
//
// Why a second coding: the interleaved sections of FORMAT.md cost a GPU encoder ~46 thread instructions
// per bf16 element (ncu, session 13): a full histogram pass with shared atomics, a warp ballot and
// prefix count to place every word, and (format version 1) a state in [2^16, 2^32) whose reciprocal
// needed a correction (version 2 moved the interleaved sections' states to [2^15, 2^31) too).
// Here each of a block's 32 lanes owns its own word stream (a lane places its word with one store),
// the state lives in [2^15, 2^31) (an exact 32-bit reciprocal, no correction), and the frequency table
// comes from a sample of the block plus the block's symbol range (min and max: two instructions per
// element pair instead of a histogram).
#pragma once

#include "uzip_format.h"

#define UZIP_LANES_N 32u                    /* lane streams per block */
#define UZIP_LANES_L UZIP_ANS_L             /* lower bound of a lane state; states live in [L, 2^31) */
#define UZIP_LANES_LOG2_BLOCK_MAX 14u       /* a lane's word budget (below) stays within 256 words */
#define UZIP_LANES_SAMPLE_SHIFT 3u          /* the table's sample: elements whose block index is 0 mod 8 */
#define UZIP_LANES_FIXED_BYTES (4u * UZIP_LANES_N + 2u * UZIP_LANES_N) /* states + word counts */

// Elements per chunk: one 16-byte vector of the input. A block's chunk j belongs to lane j % 32; a
// lane's symbols are its chunks' elements in block order.
UZIP_HD uint32_t uzip_lanes_chunk(uint32_t width) { return 16u / width; }

// The most words one lane may emit: half its share of a full block's raw symbol bytes. A lane over it
// makes the plane RAW (such a plane could not have saved much).
UZIP_HD uint32_t uzip_lanes_word_cap(uint32_t log2_block) { return 1u << (log2_block - 6u); }

// Symbols lane l holds in a block of m elements of the given width.
UZIP_HD uint32_t uzip_lanes_lane_len(uint32_t m, uint32_t width, uint32_t l) {
  const uint32_t c = uzip_lanes_chunk(width), per_round = c * UZIP_LANES_N;
  const uint32_t rounds = m / per_round, rest = m - rounds * per_round;
  const uint32_t first = l * c;  // start of the lane's chunk in the partial round
  const uint32_t extra = rest > first ? (rest - first < c ? rest - first : c) : 0u;
  return rounds * c + extra;
}
// Block index of symbol k of lane l.
UZIP_HD uint32_t uzip_lanes_elem(uint32_t width, uint32_t l, uint32_t k) {
  const uint32_t c = uzip_lanes_chunk(width);
  return ((k / c) * UZIP_LANES_N + l) * c + k % c;
}

// Table bytes: u8 lo, u8 hi, u16 0, u16 freq[hi - lo + 1], padded to 4.
UZIP_HD uint32_t uzip_lanes_table_bytes(uint32_t lo, uint32_t hi) { return (4u + 2u * (hi - lo + 1u) + 3u) & ~3u; }

// Frequencies from the sample counts (total = sample size >= 1) over the block's range [lo, hi], lo < hi:
//   f[s] = max(1, floor(c[s] * 2048 / total)) for lo <= s <= hi (every symbol in the range, sampled
//   or not, gets at least 1: the range covers every symbol of the block), 0 elsewhere;
//   then the correction of uzip_normalize_freqs: d = 2048 - sum(f); if d >= 0 the symbol with the
//   largest count (lowest on ties) takes d; else while d < 0 the symbol with the largest f (lowest on
//   ties) gives min(-d, f - 1).
UZIP_HD void uzip_lanes_normalize(const uint32_t* counts, uint32_t total, uint32_t lo, uint32_t hi,
                                  uint32_t* freqs) {
  int32_t sum = 0;
  uint32_t best_c = 0, best_c_sym = lo;
  for (uint32_t s = 0; s < 256u; s++) {
    uint32_t f = 0;
    if (s >= lo && s <= hi) {
      const uint32_t c = counts[s];
      f = (c * UZIP_ANS_M) / total;  // c <= total <= 2^13: no overflow
      if (f == 0) f = 1;
      if (c > best_c) { best_c = c; best_c_sym = s; }
    }
    freqs[s] = f;
    sum += (int32_t)f;
  }
  uzip_settle_freqs(freqs, (int32_t)UZIP_ANS_M - sum, best_c_sym);  // f = 0 outside [lo, hi]
}

// Encoder entry of a symbol of frequency f (1..2047) starting at cum: uzip_ans_enc_entry's exact reciprocal
// (the interleaved sections' states are under 2^31 too since format version 2), packed for the lane step:
//   q = umulhi(x, rcp) >> shift;  x' = x + bias + q * cmpl
// xsh packs the renormalization bound f << 20 with the shift in its low bits: x >= f << 20 exactly when
// (x | 0xFFFFF) >= xsh, and a wrap-mode funnel shift reads only the low 5 bits of xsh.
struct uzip_lanes_enc_sym {
  uint32_t rcp, xsh, cmpl, bias;
};
UZIP_HD uzip_lanes_enc_sym uzip_lanes_enc_entry(uint32_t f, uint32_t cum) {
  const uzip_ans_enc_sym a = uzip_ans_enc_entry(f, cum, UZIP_ANS_PROB_BITS);
  uzip_lanes_enc_sym e;
  e.rcp = a.rcp;
  e.xsh = a.bound | (a.biasShift & 31u);
  e.cmpl = a.cmpl;
  e.bias = a.biasShift >> 5;
  return e;
}
// One encoder step: emits (returns 1, *word) when x must shed 16 bits first.
UZIP_HD int uzip_lanes_encode(uint32_t* x, const uzip_lanes_enc_sym& e, uint16_t* word) {
  uint32_t s = *x;
  int emit = 0;
  if ((s | 0xFFFFFu) >= e.xsh) {
    *word = (uint16_t)s;
    s >>= 16;
    emit = 1;
  }
  const uint32_t q = (uint32_t)(((uint64_t)s * e.rcp) >> 32) >> (e.xsh & 31u);
  *x = s + e.bias + q * e.cmpl;
  return emit;
}
// One decoder step given the slot's symbol frequency and start; returns 1 when a word must be read:
// x = (x << 16) | word.
UZIP_HD int uzip_lanes_decode(uint32_t* x, uint32_t f, uint32_t cum) {
  const uint32_t s = *x;
  const uint32_t y = f * (s >> UZIP_ANS_PROB_BITS) + (s & (UZIP_ANS_M - 1u)) - cum;
  *x = y;
  return y < UZIP_LANES_L;
}
