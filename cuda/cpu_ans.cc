// CPU codec: the rANS plane section (table + 32-lane interleaved segments), encode and validating decode.
// The arithmetic is uzip_ans_encode / uzip_ans_decode of uzip_format.h, restated in branch-free form for
// speed: the division by the frequency is uzip_ans_enc_entry's exact reciprocal (a multiply and a shift), and the decoder looks the slot up in a 2048-entry table packing symbol, frequency and
// slot - cum. tests/native/cpu_codec_test.cc checks both against the shared functions.
#include "cpu_internal.h"

namespace uzip_cpu {
namespace {

// One encoder step; equal to uzip_ans_encode, written without data-dependent branches (the renormalize
// decision is a coin flip the branch predictor cannot learn). After the shed x < f << 20 <= 2^31, where
// uzip_ans_enc_next is exact.
static inline uint32_t enc_step(uint32_t x, const uzip_ans_enc_sym& e, uint16_t*& wp) {
  uint32_t emit = x >= e.bound;
  wp[-1] = (uint16_t)x;
  wp -= emit;
  x >>= emit << 4;
  return uzip_ans_enc_next(x, e);
}

}  // namespace

uint64_t ans_encode_plane(const uint8_t* plane, uint64_t n, const uint32_t* freqs, uint8_t* out) {
  uzip_ans_enc_sym tab[256];
  uint32_t k = 0, cum = 0;
  uint8_t* bitmap = out + 4;
  memset(bitmap, 0, 32);
  for (uint32_t s = 0; s < 256u; s++) {
    uint32_t f = freqs[s];
    tab[s] = uzip_ans_enc_entry(f ? f : 1u, cum, UZIP_ANS_PROB_BITS);  // absent symbols are never coded
    if (f) {
      bitmap[s >> 3] |= (uint8_t)(1u << (s & 7u));
      st16(out + 36 + 2 * k, (uint16_t)f);
      k++;
    }
    cum += f;
  }
  st16(out, (uint16_t)k);
  st16(out + 2, 0);
  uint64_t pos = uzip_ans_table_bytes(k);
  for (uint64_t i = 36 + 2 * (uint64_t)k; i < pos; i++) out[i] = 0;

  uint16_t wbuf[UZIP_ANS_SEG_SYMS];
  const uint32_t nseg = uzip_ans_nseg(n);
  for (uint32_t sg = 0; sg < nseg; sg++) {
    const uint8_t* in = plane + (uint64_t)sg * UZIP_ANS_SEG_SYMS;
    uint64_t rest = n - (uint64_t)sg * UZIP_ANS_SEG_SYMS;
    uint32_t len = rest < UZIP_ANS_SEG_SYMS ? (uint32_t)rest : UZIP_ANS_SEG_SYMS;
    uint32_t x[UZIP_ANS_LANES];
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) x[l] = UZIP_ANS_L;
    uint16_t* const wend = wbuf + UZIP_ANS_SEG_SYMS;
    uint16_t* wp = wend;
    uint32_t full = len / UZIP_ANS_LANES, tail = len % UZIP_ANS_LANES;
    // The short last step first (the encoder walks backwards), then the full steps.
    for (int32_t l = (int32_t)tail - 1; l >= 0; l--) x[l] = enc_step(x[l], tab[in[full * 32u + l]], wp);
    for (int32_t t = (int32_t)full - 1; t >= 0; t--) {
      const uint8_t* row = in + (uint32_t)t * 32u;
      for (int32_t l = 31; l >= 0; l--) x[l] = enc_step(x[l], tab[row[l]], wp);
    }
    uint32_t nwords = (uint32_t)(wend - wp);
    uint8_t* seg = out + pos;
    st32(seg, nwords);
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) st32(seg + 4 + 4 * l, x[l]);
    memcpy(seg + UZIP_ANS_SEG_HEADER_BYTES, wp, 2 * (uint64_t)nwords);
    uint64_t bytes = UZIP_ANS_SEG_HEADER_BYTES + 2 * (uint64_t)nwords;
    if (bytes & 2u) st16(seg + bytes, 0), bytes += 2;
    pos += bytes;
  }
  return pos;
}

namespace {

// Decodes one segment of len symbols. words: nwords readable u16 words. Returns false on a corrupt
// segment (a word read past nwords). *used receives the words consumed; x holds the final states.
static bool dec_segment(uint32_t* x, const uint8_t* words, uint32_t nwords, uint32_t len,
                        const uint32_t* dtab, uint8_t* out, uint32_t* used) {
  uint32_t next = 0;
  uint32_t full = len / UZIP_ANS_LANES, tail = len % UZIP_ANS_LANES;
  for (uint32_t t = 0; t <= full; t++) {
    uint32_t lanes = t < full ? UZIP_ANS_LANES : tail;
    uint8_t* o = out + t * UZIP_ANS_LANES;
    if (lanes == UZIP_ANS_LANES && nwords - next >= UZIP_ANS_LANES) {
      // Fast path: at most 32 words are read in a step, all known to exist, so the word load can be
      // done unconditionally and selected branch-free.
#pragma GCC unroll 8
      for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) {
        uint32_t s = x[l];
        uint32_t e = dtab[s & (UZIP_ANS_M - 1u)];
        o[l] = (uint8_t)e;
        s = ((e >> 8) & 0xFFFu) * (s >> UZIP_ANS_PROB_BITS) + (e >> 20);
        uint32_t w = ld16(words + 2 * (uint64_t)next);
        uint32_t r = s < UZIP_ANS_L, mask = 0u - r;  // arithmetic select: the branch is a coin flip
        s = (s << (mask & 16u)) | (w & mask);
        next += r;
        x[l] = s;
      }
    } else {
      for (uint32_t l = 0; l < lanes; l++) {
        uint32_t s = x[l];
        uint32_t e = dtab[s & (UZIP_ANS_M - 1u)];
        o[l] = (uint8_t)e;
        s = ((e >> 8) & 0xFFFu) * (s >> UZIP_ANS_PROB_BITS) + (e >> 20);
        if (s < UZIP_ANS_L) {
          if (next >= nwords) return false;
          s = (s << 16) | ld16(words + 2 * (uint64_t)next);
          next++;
        }
        x[l] = s;
      }
    }
  }
  *used = next;
  return true;
}

}  // namespace

int ans_decode_section(const uint8_t* p, uint64_t avail, uint64_t n, uint8_t* out, uint64_t* used,
                       const char* what, uint64_t block) {
  unsigned long long bl = (unsigned long long)block;
  if (avail < 36)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table runs past the block payload", bl, what);
  uint32_t k = ld16(p), zero = ld16(p + 2);
  if (zero != 0)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table reserved u16 not zero", bl, what);
  uint32_t pop = 0;
  for (int i = 0; i < 32; i++) pop += (uint32_t)__builtin_popcount(p[4 + i]);
  if (pop != k)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table says %u symbols, bitmap has %u", bl,
                        what, k, pop);
  uint64_t tb = uzip_ans_table_bytes(k);
  if (tb > avail)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table runs past the block payload", bl, what);
  uint32_t freqs[256], sum = 0, j = 0;
  for (uint32_t s = 0; s < 256u; s++) {
    uint32_t f = 0;
    if (p[4 + (s >> 3)] & (1u << (s & 7u))) {
      f = ld16(p + 36 + 2 * j);
      j++;
      if (f == 0)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS frequency of symbol %u is zero", bl,
                            what, s);
    }
    freqs[s] = f;
    sum += f;
  }
  if (sum != UZIP_ANS_M)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS frequencies sum to %u, not 2048", bl, what,
                        sum);
  if (!all_zero(p + 36 + 2 * k, tb - 36 - 2 * k))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table padding not zero", bl, what);

  uint32_t dtab[UZIP_ANS_M];
  if (out) {
    uint32_t cum = 0;
    for (uint32_t s = 0; s < 256u; s++) {
      for (uint32_t i = 0; i < freqs[s]; i++) dtab[cum + i] = s | (freqs[s] << 8) | (i << 20);
      cum += freqs[s];
    }
  }

  uint64_t pos = tb;
  const uint32_t nseg = uzip_ans_nseg(n);
  for (uint32_t sg = 0; sg < nseg; sg++) {
    uint64_t rest = n - (uint64_t)sg * UZIP_ANS_SEG_SYMS;
    uint32_t len = rest < UZIP_ANS_SEG_SYMS ? (uint32_t)rest : UZIP_ANS_SEG_SYMS;
    if (avail - pos < UZIP_ANS_SEG_HEADER_BYTES)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u header runs past the block",
                          bl, what, sg);
    const uint8_t* seg = p + pos;
    uint32_t nwords = ld32(seg);
    uint64_t bytes = UZIP_ANS_SEG_HEADER_BYTES + 2 * (uint64_t)nwords;
    uint64_t padded = (bytes + 3u) & ~(uint64_t)3u;
    if (nwords > len || padded > avail - pos)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u has %u words, too many", bl,
                          what, sg, nwords);
    if (padded != bytes && ld16(seg + bytes) != 0)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u padding not zero", bl, what, sg);
    uint32_t x[UZIP_ANS_LANES];
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) {
      x[l] = ld32(seg + 4 + 4 * l);
      if (x[l] < UZIP_ANS_L || x[l] >= UZIP_ANS_X_END)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u lane %u state %u outside "
                            "[2^15, 2^31)", bl, what, sg, l, x[l]);
    }
    if (out) {
      uint32_t consumed = 0;
      if (!dec_segment(x, seg + UZIP_ANS_SEG_HEADER_BYTES, nwords, len, dtab,
                       out + (uint64_t)sg * UZIP_ANS_SEG_SYMS, &consumed))
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u reads past its %u words", bl,
                            what, sg, nwords);
      if (consumed != nwords)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u used %u of its %u words", bl,
                            what, sg, consumed, nwords);
      for (uint32_t l = 0; l < UZIP_ANS_LANES; l++)
        if (x[l] != UZIP_ANS_L)
          return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u lane %u ends in state %u, "
                              "not 2^15", bl, what, sg, l, x[l]);
    }
    pos += padded;
  }
  *used = pos;
  return UZIP_OK;
}

}  // namespace uzip_cpu
