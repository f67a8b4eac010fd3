// Pair coding: the symbol-plane coding of streams with the PAIRS flag (FORMAT.md "Pair coding"). Shared
// by the CPU reference (cpu_pairs.cc) and, once they exist, the GPU kernels, so both emit the same bytes.
//
// Why: the interleaved rANS coder spends one dependent state step (~27 SASS instructions on the GPU, 63%
// of the encoder's instructions) per element, although a bf16 or fp32 exponent carries only ~2.6 bits.
// Here each element's exponent becomes a 4-bit code (its rank among the block's 15 most frequent
// exponents; 15 escapes to a raw byte), and one rANS step codes the codes of two elements: half the steps
// for ~5.2 bits a step. The pair frequencies are the product of the 16 code frequencies (adjacent
// exponents are nearly independent), so the table stays 16 entries on the wire. At 2^12 resolution the
// ratio matches byte coding within 0.002 (tests/native/cpu_codec_test.cc prints both); a proxy through
// the byte coder's GPU kernel ran 1.6x faster per element compressing and 1.8x decompressing
// (bench/results/h200-2026-12-04T1540-session31/1-pair-proxy).
#pragma once

#include "uzip_format.h"

#define UZIP_PAIRS_CODES 16u        /* codes 0..14 name the block's most frequent symbols; 15 escapes */
#define UZIP_PAIRS_ESC 15u
#define UZIP_PAIRS_PROB_BITS 12u    /* pair frequencies sum to 4096 */
#define UZIP_PAIRS_M (1u << UZIP_PAIRS_PROB_BITS)
#define UZIP_PAIRS_HEAD_BYTES 56u   /* u8 n, u8 0, u16 0, u32 nesc, u8 sym[16], u16 freq[16] */

// Dtypes whose symbol is an 8-bit exponent (fp16's symbol carries 3 mantissa bits: too many values).
UZIP_HD int uzip_pairs_dtype_ok(uint32_t dtype) { return dtype == UZIP_DTYPE_BF16 || dtype == UZIP_DTYPE_FP32; }

// Pair symbols of a block of m elements: pair k holds elements 2k and 2k + 1 (an odd block's last pair
// pads its second element with code 0).
UZIP_HD uint32_t uzip_pairs_count(uint32_t m) { return (m + 1u) >> 1; }

// The codes of a block from its symbol counts: the present symbols ranked by count (larger first, the
// lower symbol first on ties); the first min(15, present) get codes 0, 1, ... (sym_of_code[c]), every
// other symbol escapes. sym_of_code[n .. 15] are set to 0. Returns n.
UZIP_HD uint32_t uzip_pairs_codes(const uint32_t* counts, uint8_t* sym_of_code) {
  uint32_t n = 0, cnt[UZIP_PAIRS_ESC];
  for (uint32_t s = 0; s < 256u; s++) {
    const uint32_t c = counts[s];
    if (!c || (n == UZIP_PAIRS_ESC && c <= cnt[n - 1u])) continue;
    // Insert after every kept symbol of a count >= c (those come first: larger, or equal and lower).
    uint32_t i = n < UZIP_PAIRS_ESC ? n++ : n - 1u;
    for (; i > 0 && cnt[i - 1u] < c; i--) cnt[i] = cnt[i - 1u], sym_of_code[i] = sym_of_code[i - 1u];
    cnt[i] = c;
    sym_of_code[i] = (uint8_t)s;
  }
  for (uint32_t c = n; c < UZIP_PAIRS_CODES; c++) sym_of_code[c] = 0;
  return n;
}

// Code frequencies out of 4096 from the code counts (mc[15]: escaped elements) over m elements, by the
// rule of uzip_normalize_freqs at this resolution: f = c ? max(1, floor(c * 4096 / m)) : 0; d = 4096 -
// sum f; d >= 0 goes to the code of the largest count (lowest code on ties); while d < 0 the code of the
// largest f (lowest on ties) gives min(-d, f - 1).
UZIP_HD void uzip_pairs_code_freqs(const uint32_t* mc, uint32_t m, uint32_t* mf) {
  int32_t d = (int32_t)UZIP_PAIRS_M;
  uint32_t best = 0;
  for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++) {
    uint32_t f = mc[c] ? (mc[c] * UZIP_PAIRS_M) / m : 0u;  // mc <= m <= 2^16: no overflow
    if (mc[c] && f == 0) f = 1;
    if (mc[c] > mc[best]) best = c;
    mf[c] = f;
    d -= (int32_t)f;
  }
  uzip_settle_freqs_n(mf, UZIP_PAIRS_CODES, d, best);
}

// Pair frequencies out of 4096 from the code frequencies: pair symbol a | b << 4 (a the first element's
// code) gets max(1, floor(mf[a] * mf[b] / 4096)) when both codes are present, else 0; then d = 4096 - sum:
// d >= 0 goes to the pair c | c << 4 of the largest code frequency mf[c] (lowest c on ties); while d < 0
// the pair of the largest f (lowest symbol on ties) gives min(-d, f - 1). At least two codes are present
// (a block of one symbol is CONST), so every pair frequency ends in [1, 4095].
UZIP_HD void uzip_pairs_pair_freqs(const uint32_t* mf, uint32_t* pf) {
  int32_t d = (int32_t)UZIP_PAIRS_M;
  uint32_t best = 0;
  for (uint32_t c = 1; c < UZIP_PAIRS_CODES; c++)
    if (mf[c] > mf[best]) best = c;
  for (uint32_t s = 0; s < 256u; s++) {
    const uint32_t fa = mf[s & 15u], fb = mf[s >> 4];
    uint32_t f = (fa * fb) >> UZIP_PAIRS_PROB_BITS;
    if (fa && fb && f == 0) f = 1;
    pf[s] = f;
    d -= (int32_t)f;
  }
  uzip_settle_freqs_n(pf, 256u, d, best * 17u);  // the pair best | best << 4
}

// rANS at 2^12 with the state of FORMAT.md's ANS sections ([2^15, 2^31), 16-bit words). Encoder step:
// returns 1 with *word set when 16 bits leave first (x >= f << 19). f in [1, 4095].
UZIP_HD int uzip_pairs_encode(uint32_t* x, uint32_t f, uint32_t cum, uint16_t* word) {
  return uzip_rans_encode(x, f, cum, UZIP_PAIRS_PROB_BITS, word);
}
// Decoder step given the symbol found from slot = x & 4095; returns 1 when x = (x << 16) | word follows.
UZIP_HD int uzip_pairs_decode(uint32_t* x, uint32_t f, uint32_t cum) {
  return uzip_rans_decode(x, f, cum, UZIP_PAIRS_PROB_BITS);
}

// Bytes of a section's head and escapes: the 56-byte head, nesc escape bytes, zeros to a multiple of 4.
UZIP_HD uint64_t uzip_pairs_head_bytes(uint64_t nesc) { return (UZIP_PAIRS_HEAD_BYTES + nesc + 3u) & ~(uint64_t)3u; }
