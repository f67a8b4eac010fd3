// CPU codec: the rANS plane section (table + 32-lane interleaved segments), encode and validating decode.
// The arithmetic is uzip_ans_encode / uzip_ans_decode of uzip_format.h, restated in branch-free form for
// speed: the division by the frequency is uzip_ans_enc_entry's exact reciprocal (a multiply and a shift), and the decoder looks the slot up in a 2048-entry table packing symbol, frequency and
// slot - cum. tests/native/cpu_codec_test.cc checks both against the shared functions.
#include "cpu_internal.h"

#if UZIP_CPU_X86
#include <immintrin.h>
#endif
#include <stdlib.h>

namespace uzip_cpu {

// -1: not yet decided. The AVX2 paths run when the CPU has AVX2 and UZIP_CPU_SIMD is not "0".
static int g_simd = -1;

int simd_level() {
  int v = __atomic_load_n(&g_simd, __ATOMIC_RELAXED);
  if (v < 0) {
    const char* env = getenv("UZIP_CPU_SIMD");
    v = 0;
#if UZIP_CPU_X86
    if (!(env && env[0] == '0') && __builtin_cpu_supports("avx2")) v = 1;
#endif
    (void)env;
    __atomic_store_n(&g_simd, v, __ATOMIC_RELAXED);
  }
  return v;
}

void force_simd_level(int level) { __atomic_store_n(&g_simd, level, __ATOMIC_RELAXED); }

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

#if UZIP_CPU_X86
// Per 8-bit mask m of the lanes of an 8-lane vector, two permutations: expand[m][i] is lane i's rank among
// m's lanes (the decoder refills them from the next words: lane i takes word rank), 0 outside m; compress[m]
// lists m's lanes in order at positions 8 - popcount(m) .. 7 (the encoder's shed words end at the top of
// an 8-word window).
struct LaneTables {
  uint32_t expand[256][8], compress[256][8];
  constexpr LaneTables() : expand(), compress() {
    for (uint32_t m = 0; m < 256u; m++) {
      const uint32_t c = (uint32_t)__builtin_popcount(m);
      for (uint32_t i = 0, r = 0; i < 8u; i++) {
        if (!((m >> i) & 1u)) continue;
        expand[m][i] = r;
        compress[m][8u - c + r] = i;
        r++;
      }
    }
  }
};
constexpr LaneTables kLanes{};

// The table entries as three 32-bit arrays, for gathers.
struct EncTabSoA {
  uint32_t rcp[256], bound[256], cbs[256];  // cbs: cmpl << 18 | biasShift (bias < 2^13, shift < 32)
};

// One step of eight lanes (lanes 8k..8k+7): the scalar enc_step on each, their shed words stored below wp
// in lane order (one 16-byte store whose lower part lands below the words: overwritten later, or never
// read), wp moved down by their count.
__attribute__((target("avx2,popcnt"))) static inline __m256i enc_vec_avx2(__m256i x, const uint8_t* syms,
                                                                         const EncTabSoA& t, uint16_t*& wp) {
  const __m256i sym = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)syms));
  const __m256i bound = _mm256_i32gather_epi32((const int*)t.bound, sym, 4);
  const __m256i rcp = _mm256_i32gather_epi32((const int*)t.rcp, sym, 4);
  const __m256i cbs = _mm256_i32gather_epi32((const int*)t.cbs, sym, 4);
  // x >= bound (states and bounds under 2^31: the signed compare is the unsigned one).
  const __m256i shed = _mm256_xor_si256(_mm256_cmpgt_epi32(bound, x), _mm256_set1_epi32(-1));
  const uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(shed));
  const __m256i moved = _mm256_permutevar8x32_epi32(x, _mm256_loadu_si256((const __m256i*)kLanes.compress[m]));
  // The low halves of the eight 32-bit lanes, in order, in the low 128 bits.
  const __m256i lo16 = _mm256_shuffle_epi8(
      moved, _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13,
                              -1, -1, -1, -1, -1, -1, -1, -1));
  const __m128i words = _mm256_castsi256_si128(_mm256_permute4x64_epi64(lo16, 0x08));
  _mm_storeu_si128((__m128i*)(wp - 8), words);
  wp -= __builtin_popcount(m);
  x = _mm256_blendv_epi8(x, _mm256_srli_epi32(x, 16), shed);
  // q = umulhi(x, rcp) >> shift: even lanes' and odd lanes' 64-bit products, their high words joined.
  const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(x, rcp), 32);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(rcp, 32));
  const __m256i hi = _mm256_blend_epi32(even, odd, 0xAA);
  const __m256i q = _mm256_srlv_epi32(hi, _mm256_and_si256(cbs, _mm256_set1_epi32(31)));
  const __m256i bias = _mm256_and_si256(_mm256_srli_epi32(cbs, 5), _mm256_set1_epi32(0x1FFF));
  const __m256i cmpl = _mm256_srli_epi32(cbs, 18);
  return _mm256_add_epi32(_mm256_add_epi32(x, bias), _mm256_mullo_epi32(q, cmpl));
}

// A segment's full steps t = full - 1 .. 0 on AVX2 (after its short last step): lanes 31..0 as the scalar
// loop takes them, a vector at a time from the top.
__attribute__((target("avx2,popcnt"))) static void enc_steps_avx2(uint32_t* x, const uint8_t* in, uint32_t full,
                                                                  const EncTabSoA& t, uint16_t*& wp) {
  __m256i v[4];
  for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_si256((const __m256i*)(x + 8 * k));
  for (int32_t s = (int32_t)full - 1; s >= 0; s--) {
    const uint8_t* row = in + (uint32_t)s * 32u;
    v[3] = enc_vec_avx2(v[3], row + 24, t, wp);
    v[2] = enc_vec_avx2(v[2], row + 16, t, wp);
    v[1] = enc_vec_avx2(v[1], row + 8, t, wp);
    v[0] = enc_vec_avx2(v[0], row, t, wp);
  }
  for (int k = 0; k < 4; k++) _mm256_storeu_si256((__m256i*)(x + 8 * k), v[k]);
}
#endif

}  // namespace

// Writes the section's table (FORMAT.md "ANS section"; a LEAN stream's form with lean) and returns its
// padded size.
static uint64_t put_table(const uint32_t* freqs, bool lean, uint8_t* out) {
  uint32_t k = 0, lo = 255, hi = 0;
  for (uint32_t s = 0; s < 256u; s++)
    if (freqs[s]) {
      k++;
      lo = s < lo ? s : lo;
      hi = s;
    }
  uint32_t pos;
  if (lean && uzip_lean_range_form(k, lo, hi)) {
    out[0] = (uint8_t)lo, out[1] = (uint8_t)hi;
    st16(out + 2, (uint16_t)k);
    pos = 4;
    for (uint32_t s = lo; s <= hi; s++, pos += 2) st16(out + pos, (uint16_t)freqs[s]);
  } else {
    if (lean) out[0] = (uint8_t)lo, out[1] = (uint8_t)hi, st16(out + 2, (uint16_t)k);
    else st16(out, (uint16_t)k), st16(out + 2, 0);
    uint8_t* bitmap = out + 4;
    memset(bitmap, 0, 32);
    pos = 36;
    for (uint32_t s = 0; s < 256u; s++)
      if (freqs[s]) {
        bitmap[s >> 3] |= (uint8_t)(1u << (s & 7u));
        st16(out + pos, (uint16_t)freqs[s]);
        pos += 2;
      }
  }
  const uint32_t tb = lean ? uzip_lean_table_bytes(k, lo, hi) : uzip_ans_table_bytes(k);
  for (; pos < tb; pos++) out[pos] = 0;
  return tb;
}

uint64_t ans_encode_plane(const uint8_t* plane, uint64_t n, const uint32_t* freqs, uint8_t* out, const AnsLean& lean,
                          const uint32_t* seeds) {
  uzip_ans_enc_sym tab[256];
  for (uint32_t s = 0, cum = 0; s < 256u; s++) {
    const uint32_t f = freqs[s];
    tab[s] = uzip_ans_enc_entry(f ? f : 1u, cum, UZIP_ANS_PROB_BITS);  // absent symbols are never coded
    cum += f;
  }
  uint64_t pos = put_table(freqs, lean.tables, out);

#if UZIP_CPU_X86
  const bool simd = simd_level() >= 1;
  EncTabSoA soa;
  if (simd) {
    for (uint32_t s = 0; s < 256u; s++) {
      soa.rcp[s] = tab[s].rcp;
      soa.bound[s] = tab[s].bound;
      soa.cbs[s] = tab[s].cmpl << 18 | tab[s].biasShift;
    }
  }
#endif
  // 8 words of room below the words: the AVX2 steps store 8 words at a time, the shed ones at the top.
  uint16_t wbufAll[8 + UZIP_ANS_SEG_SYMS];
  uint16_t* const wbuf = wbufAll + 8;
  const uint32_t nseg = uzip_ans_nseg(n);
  for (uint32_t sg = 0; sg < nseg; sg++) {
    const uint8_t* in = plane + (uint64_t)sg * UZIP_ANS_SEG_SYMS;
    uint64_t rest = n - (uint64_t)sg * UZIP_ANS_SEG_SYMS;
    uint32_t len = rest < UZIP_ANS_SEG_SYMS ? (uint32_t)rest : UZIP_ANS_SEG_SYMS;
    uint32_t x[UZIP_ANS_LANES];
    const bool seeded = lean.seedDtype && uzip_seg_seeded(len, lean.seedDtype);
    const uint32_t top = seeded ? 1u << uzip_seed_bits(lean.seedDtype) : 0u;
    for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) x[l] = seeded ? top + seeds[32u * sg + l] : UZIP_ANS_L;
    uint16_t* const wend = wbuf + UZIP_ANS_SEG_SYMS;
    uint16_t* wp = wend;
    uint32_t full = len / UZIP_ANS_LANES, tail = len % UZIP_ANS_LANES;
    // The short last step first (the encoder walks backwards), then the full steps.
    for (int32_t l = (int32_t)tail - 1; l >= 0; l--) x[l] = enc_step(x[l], tab[in[full * 32u + l]], wp);
#if UZIP_CPU_X86
    if (simd) {
      enc_steps_avx2(x, in, full, soa, wp);
      full = 0;
    }
#endif
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

#if UZIP_CPU_X86

// dec_segment's full steps on AVX2, while every step is sure of 32 words (the scalar fast path's
// condition), eight lanes a vector in lane order, so the words are taken in the stream's order. The same
// arithmetic as the scalar loop: a gather of the slot's table entry, the state update as a 32-bit
// multiply, and the refill of the lanes under 2^15 from the next words, expanded to their lanes through
// kLanes.expand. Decodes steps [0, t) and returns t; x and *next are updated.
__attribute__((target("avx2,popcnt"))) static uint32_t dec_steps_avx2(uint32_t* x, const uint8_t* words,
                                                                     uint32_t nwords, uint32_t full,
                                                                     const uint32_t* dtab, uint8_t* out,
                                                                     uint32_t* nextp) {
  const __m256i slotMask = _mm256_set1_epi32((int)(UZIP_ANS_M - 1u));
  const __m256i fMask = _mm256_set1_epi32(0xFFF);
  const __m256i lower = _mm256_set1_epi32((int)UZIP_ANS_L);
  const __m256i byteMask = _mm256_set1_epi32(0xFF);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  __m256i v[4];
  for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_si256((const __m256i*)(x + 8 * k));
  uint32_t next = *nextp, t = 0;
  for (; t < full && nwords - next >= UZIP_ANS_LANES; t++) {
    __m256i sym[4];
    for (int k = 0; k < 4; k++) {
      const __m256i e = _mm256_i32gather_epi32((const int*)dtab, _mm256_and_si256(v[k], slotMask), 4);
      sym[k] = _mm256_and_si256(e, byteMask);
      const __m256i f = _mm256_and_si256(_mm256_srli_epi32(e, 8), fMask);
      __m256i s = _mm256_add_epi32(_mm256_mullo_epi32(f, _mm256_srli_epi32(v[k], UZIP_ANS_PROB_BITS)),
                                   _mm256_srli_epi32(e, 20));
      // States stay under 2^31, so the signed compare is the unsigned one.
      const __m256i need = _mm256_cmpgt_epi32(lower, s);
      const uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(need));
      const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i*)(words + 2u * next)));
      const __m256i mine = _mm256_permutevar8x32_epi32(w, _mm256_loadu_si256((const __m256i*)kLanes.expand[m]));
      const __m256i refilled = _mm256_or_si256(_mm256_slli_epi32(s, 16), mine);
      v[k] = _mm256_blendv_epi8(s, refilled, need);
      next += (uint32_t)__builtin_popcount(m);
    }
    // 32 symbols in lane order: two packs interleave the vectors' 128-bit halves, one permute undoes it.
    const __m256i p01 = _mm256_packus_epi32(sym[0], sym[1]), p23 = _mm256_packus_epi32(sym[2], sym[3]);
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p01, p23), order);
    _mm256_storeu_si256((__m256i*)(out + (uint64_t)t * UZIP_ANS_LANES), bytes);
  }
  for (int k = 0; k < 4; k++) _mm256_storeu_si256((__m256i*)(x + 8 * k), v[k]);
  *nextp = next;
  return t;
}
#endif

// Decodes one segment of len symbols. words: nwords readable u16 words. Returns false on a corrupt
// segment (a word read past nwords). *used receives the words consumed; x holds the final states.
static bool dec_segment(uint32_t* x, const uint8_t* words, uint32_t nwords, uint32_t len,
                        const uint32_t* dtab, uint8_t* out, uint32_t* used) {
  uint32_t next = 0;
  uint32_t full = len / UZIP_ANS_LANES, tail = len % UZIP_ANS_LANES;
  uint32_t t0 = 0;
#if UZIP_CPU_X86
  if (simd_level() >= 1) t0 = dec_steps_avx2(x, words, nwords, full, dtab, out, &next);
#endif
  for (uint32_t t = t0; t <= full; t++) {
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

// Reads and validates a section's table (either form) into freqs[256]; *tb: its padded size.
static int read_table(const uint8_t* p, uint64_t avail, bool lean, uint32_t* freqs, uint64_t* tbOut,
                      const char* what, unsigned long long bl) {
  if (avail < (lean ? 4u : 36u))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table runs past the block payload", bl, what);
  const uint32_t lo = p[0], hi = p[1], k = lean ? ld16(p + 2) : ld16(p);
  bool range = false;
  if (!lean) {
    if (ld16(p + 2) != 0)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table reserved u16 not zero", bl, what);
  } else {
    if (lo > hi || k == 0 || k > hi - lo + 1u)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table of %u symbols in [%u, %u]", bl, what, k,
                          lo, hi);
    range = uzip_lean_range_form(k, lo, hi);
  }
  if (!range) {
    if (avail < 36)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table runs past the block payload", bl, what);
    uint32_t pop = 0;
    for (int i = 0; i < 32; i++) pop += (uint32_t)__builtin_popcount(p[4 + i]);
    if (pop != k)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table says %u symbols, bitmap has %u", bl,
                          what, k, pop);
  }
  const uint64_t tb = lean ? uzip_lean_table_bytes(k, lo, hi) : uzip_ans_table_bytes(k);
  if (tb > avail)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table runs past the block payload", bl, what);
  uint64_t end;
  if (range) {
    uint32_t present = 0;
    for (uint32_t s = 0; s < 256u; s++) {
      const uint32_t f = s >= lo && s <= hi ? ld16(p + 4 + 2 * (s - lo)) : 0u;
      freqs[s] = f;
      present += f != 0;
    }
    if (present != k || !freqs[lo] || !freqs[hi])
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS range table of %u symbols in [%u, %u] has %u "
                          "(or an end frequency of zero)", bl, what, k, lo, hi, present);
    end = 4 + 2 * (uint64_t)(hi - lo + 1u);
  } else {
    for (uint32_t s = 0, j = 0; s < 256u; s++) {
      uint32_t f = 0;
      if (p[4 + (s >> 3)] & (1u << (s & 7u))) {
        f = ld16(p + 36 + 2 * j);
        j++;
        if (f == 0)
          return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS frequency of symbol %u is zero", bl,
                              what, s);
      }
      freqs[s] = f;
    }
    if (lean) {  // lo and hi are the bitmap's ends
      uint32_t first = 256, last = 0;
      for (uint32_t s = 0; s < 256u; s++)
        if (freqs[s]) first = first < s ? first : s, last = s;
      if (first != lo || last != hi)
        return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS bitmap spans [%u, %u], the table says "
                            "[%u, %u]", bl, what, first, last, lo, hi);
    }
    end = 36 + 2 * (uint64_t)k;
  }
  uint32_t sum = 0;
  for (uint32_t s = 0; s < 256u; s++) sum += freqs[s];
  if (sum != UZIP_ANS_M)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS frequencies sum to %u, not 2048", bl, what,
                        sum);
  if (!all_zero(p + end, tb - end))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS table padding not zero", bl, what);
  *tbOut = tb;
  return UZIP_OK;
}

int ans_decode_section(const uint8_t* p, uint64_t avail, uint64_t n, uint8_t* out, uint64_t* used,
                       const char* what, uint64_t block, const AnsLean& lean, uint32_t* seeds) {
  unsigned long long bl = (unsigned long long)block;
  uint32_t freqs[256];
  uint64_t tb = 0;
  if (int st = read_table(p, avail, lean.tables, freqs, &tb, what, bl)) return st;

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
      const bool seeded = lean.seedDtype && uzip_seg_seeded(len, lean.seedDtype);
      const uint32_t k = seeded ? uzip_seed_bits(lean.seedDtype) : 15u;
      for (uint32_t l = 0; l < UZIP_ANS_LANES; l++) {
        if (x[l] >> k != 1u || (!seeded && x[l] != UZIP_ANS_L))
          return uzipSetError(UZIP_ERR_CORRUPT, "block %llu %s plane: ANS segment %u lane %u ends in state %u, "
                              "not %s2^%u", bl, what, sg, l, x[l], seeded ? "in [2^k, 2^(k+1)), k = " : "", k);
        if (seeded) seeds[32u * sg + l] = x[l] - (1u << k);
      }
    }
    pos += padded;
  }
  *used = pos;
  return UZIP_OK;
}

}  // namespace uzip_cpu
