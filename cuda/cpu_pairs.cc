// CPU reference of the pair coding of symbol planes (FORMAT.md "Pair coding", cuda/pairs_format.h): the
// section writer of the encoder and the validating section decoder. Plain arithmetic (a division per
// step): this is the oracle that GPU kernels of the coding will be held to, byte for byte.
#include "cpu_internal.h"
#include "pairs_format.h"

namespace uzip_cpu {

uint64_t pairs_encode_plane(const uint8_t* sym, uint32_t m, const uint32_t* counts, uint8_t* out, uint32_t* mode) {
  uint8_t sym_of_code[UZIP_PAIRS_CODES], code_of[256];
  const uint32_t n = uzip_pairs_codes(counts, sym_of_code);
  memset(code_of, UZIP_PAIRS_ESC, sizeof code_of);
  uint32_t mc[UZIP_PAIRS_CODES] = {0}, mf[UZIP_PAIRS_CODES], pf[256], cum[256];
  uint32_t coded = 0;
  for (uint32_t c = 0; c < n; c++) {
    code_of[sym_of_code[c]] = (uint8_t)c;
    mc[c] = counts[sym_of_code[c]];
    coded += mc[c];
  }
  const uint32_t nesc = m - coded;
  mc[UZIP_PAIRS_ESC] = nesc;
  uzip_pairs_code_freqs(mc, m, mf);
  uzip_pairs_pair_freqs(mf, pf);
  cumulate_freqs(pf, cum);

  out[0] = (uint8_t)n;
  out[1] = 0;
  st16(out + 2, 0);
  st32(out + 4, nesc);
  memcpy(out + 8, sym_of_code, UZIP_PAIRS_CODES);
  for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++) st16(out + 24 + 2 * c, (uint16_t)mf[c]);
  uint64_t pos = UZIP_PAIRS_HEAD_BYTES;
  for (uint32_t i = 0; i < m && pos < UZIP_PAIRS_HEAD_BYTES + nesc; i++)
    if (code_of[sym[i]] == UZIP_PAIRS_ESC) out[pos++] = sym[i];
  while (pos < uzip_pairs_head_bytes(nesc)) out[pos++] = 0;

  // Segments of the pair symbols: as FORMAT.md's ANS segments (32 lanes, pair k of a segment is lane
  // k % 32, step k / 32; the encoder walks steps and lanes backwards and its words are stored reversed).
  const uint32_t np = uzip_pairs_count(m);
  uint16_t words[UZIP_ANS_SEG_SYMS];
  for (uint32_t base = 0; base < np; base += UZIP_ANS_SEG_SYMS) {
    const uint32_t len = np - base < UZIP_ANS_SEG_SYMS ? np - base : UZIP_ANS_SEG_SYMS;
    uint32_t x[UZIP_ANS_LANES], nw = 0;
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) x[l] = UZIP_ANS_L;
    for (uint32_t k = len; k-- > 0;) {
      const uint32_t e = 2u * (base + k);
      const uint32_t s = code_of[sym[e]] | (e + 1u < m ? (uint32_t)code_of[sym[e + 1u]] << 4 : 0u);
      uint16_t w;
      if (uzip_pairs_encode(&x[k % UZIP_ANS_LANES], pf[s], cum[s], &w)) words[nw++] = w;
    }
    st32(out + pos, nw);
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) st32(out + pos + 4 + 4 * l, x[l]);
    pos += UZIP_ANS_SEG_HEADER_BYTES;
    for (uint32_t i = 0; i < nw; i++) st16(out + pos + 2 * i, words[nw - 1u - i]);
    pos += 2 * (uint64_t)nw;
    if (pos & 2u) st16(out + pos, 0), pos += 2;
    if (pos >= m) break;  // not smaller than RAW: no need to code the rest
  }
  *mode = pos < m ? UZIP_MODE_PAIRS : UZIP_MODE_RAW;
  return pos < m ? pos : m;
}

int pairs_decode_section(const uint8_t* p, uint64_t avail, uint32_t m, uint8_t* out, uint64_t* used, uint64_t block) {
  const unsigned long long bl = (unsigned long long)block;
  if (avail < UZIP_PAIRS_HEAD_BYTES)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair table runs past the block payload", bl);
  const uint32_t n = p[0], nesc = ld32(p + 4);
  const uint8_t* sym_of_code = p + 8;
  if (n < 2 || n > UZIP_PAIRS_ESC || p[1] != 0 || ld16(p + 2) != 0)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair table with %u codes or a reserved field set", bl, n);
  uint32_t mf[UZIP_PAIRS_CODES], sum = 0;
  bool is_code[256] = {false};
  for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++) {
    mf[c] = ld16(p + 24 + 2 * c);
    sum += mf[c];
    // Codes 0..n-1: distinct symbols, each present; n..14 unused (zero); 15: present exactly when escapes are.
    const bool named = c < n, present = c < UZIP_PAIRS_ESC ? named : nesc > 0;
    if ((named && is_code[sym_of_code[c]]) || (!named && sym_of_code[c] != 0) || (mf[c] != 0) != present)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair table code %u (symbol %u, frequency %u) invalid", bl, c,
                          sym_of_code[c], mf[c]);
    if (named) is_code[sym_of_code[c]] = true;
  }
  if (sum != UZIP_PAIRS_M)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair code frequencies sum to %u, not 4096", bl, sum);
  if (nesc > m || (nesc && n < UZIP_PAIRS_ESC))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: %u escapes in a block of %u elements with %u codes", bl, nesc,
                        m, n);
  const uint64_t head = uzip_pairs_head_bytes(nesc);
  if (head > avail)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair escapes run past the block payload", bl);
  const uint8_t* esc = p + UZIP_PAIRS_HEAD_BYTES;
  for (uint32_t i = 0; i < nesc; i++)
    if (is_code[esc[i]])
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: escape %u is symbol %u, which has a code", bl, i, esc[i]);
  if (!all_zero(esc + nesc, head - UZIP_PAIRS_HEAD_BYTES - nesc))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair escape padding not zero", bl);

  uint32_t pf[256], cum[256];
  uzip_pairs_pair_freqs(mf, pf);
  cumulate_freqs(pf, cum);
  // Slot -> pair symbol | f << 8 | (slot - cum) << 20 (f and slot - cum < 4096).
  static thread_local uint32_t dtab[UZIP_PAIRS_M];
  if (out)
    for (uint32_t s = 0; s < 256u; s++)
      for (uint32_t i = 0; i < pf[s]; i++) dtab[cum[s] + i] = s | (pf[s] << 8) | (i << 20);

  const uint32_t np = uzip_pairs_count(m);
  uint64_t pos = head;
  uint32_t next_esc = 0;
  for (uint32_t base = 0, sg = 0; base < np; base += UZIP_ANS_SEG_SYMS, sg++) {
    const uint32_t len = np - base < UZIP_ANS_SEG_SYMS ? np - base : UZIP_ANS_SEG_SYMS;
    if (avail - pos < UZIP_ANS_SEG_HEADER_BYTES)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u header runs past the block", bl, sg);
    const uint8_t* seg = p + pos;
    const uint32_t nwords = ld32(seg);
    const uint64_t bytes = UZIP_ANS_SEG_HEADER_BYTES + 2 * (uint64_t)nwords, padded = (bytes + 3u) & ~(uint64_t)3u;
    // A pair step sheds at most one word (at most 12 bits enter per step).
    if (nwords > len || padded > avail - pos)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u has %u words, too many", bl, sg, nwords);
    if (padded != bytes && ld16(seg + bytes) != 0)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u padding not zero", bl, sg);
    uint32_t x[UZIP_ANS_LANES];
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) {
      x[l] = ld32(seg + 4 + 4 * l);
      if (x[l] < UZIP_ANS_L || x[l] >= UZIP_ANS_X_END)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u lane %u state %u outside [2^15, 2^31)",
                            bl, sg, l, x[l]);
    }
    if (out) {
      const uint8_t* words = seg + UZIP_ANS_SEG_HEADER_BYTES;
      uint32_t next = 0;
      for (uint32_t k = 0; k < len; k++) {
        uint32_t& s = x[k % UZIP_ANS_LANES];
        const uint32_t e = dtab[s & (UZIP_PAIRS_M - 1u)];
        s = ((e >> 8) & 0xFFFu) * (s >> UZIP_PAIRS_PROB_BITS) + (e >> 20);
        if (s < UZIP_ANS_L) {
          if (next == nwords)
            return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u reads past its %u words", bl, sg,
                                nwords);
          s = (s << 16) | ld16(words + 2 * (uint64_t)next++);
        }
        const uint32_t i = 2u * (base + k), codes[2] = {e & 15u, (e >> 4) & 15u};
        for (uint32_t j = 0; j < 2; j++) {
          if (i + j == m) {  // an odd block's padding: code 0
            if (codes[j] != 0)
              return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: the padding of the last pair is not code 0", bl);
            break;
          }
          if (codes[j] != UZIP_PAIRS_ESC) {
            out[i + j] = sym_of_code[codes[j]];
          } else {
            if (next_esc == nesc)
              return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair codes need more than the %u escapes", bl, nesc);
            out[i + j] = esc[next_esc++];
          }
        }
      }
      if (next != nwords)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u used %u of its %u words", bl, sg, next,
                            nwords);
      for (uint32_t l = 0; l < UZIP_ANS_LANES; l++)
        if (x[l] != UZIP_ANS_L)
          return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair segment %u lane %u ends in state %u, not 2^15", bl,
                              sg, l, x[l]);
    }
    pos += padded;
  }
  if (out && next_esc != nesc)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: %u of the %u escapes used", bl, next_esc, nesc);
  if (pos >= m)  // an encoder keeps PAIRS only when smaller than RAW
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: pair section of %llu bytes is not smaller than its %u symbols",
                        bl, (unsigned long long)pos, m);
  *used = pos;
  return UZIP_OK;
}

}  // namespace uzip_cpu
