// A deliberately plain second encoder, written from docs/FORMAT.md with the shared step functions of
// uzip_format.h (uzip_ans_encode, uzip_normalize_freqs, uzip_cost_bits256) and none of the optimized
// code of cuda/cpu_*.cc. The native test requires uzipCompressCpu to produce the same bytes, which pins
// the fast paths (reciprocal division, branch-free renormalization, sub-histograms) to the spec.
#pragma once

#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "uzip_format.h"

namespace ref {

static const uint16_t kCost[UZIP_ANS_M] = UZIP_COST_INIT;

static inline void put(std::vector<uint8_t>& v, uint64_t x, int bytes) {
  for (int i = 0; i < bytes; i++) v.push_back((uint8_t)(x >> (8 * i)));
}
static inline void pad(std::vector<uint8_t>& v, size_t from, uint64_t to) {
  while ((v.size() - from) % to) v.push_back(0);
}

// ANS section of a plane (FORMAT.md "ANS section"; a LEAN stream's table and seeded segments with lean,
// FORMAT.md "Lean sections": seeds[32 sg + l] for the segments that seedDtype seeds, seedDtype 0: none).
static inline std::vector<uint8_t> ans_section(const std::vector<uint8_t>& plane, const uint32_t* f, bool lean = false,
                                               uint32_t seedDtype = 0, const uint32_t* seeds = nullptr) {
  std::vector<uint8_t> s;
  uint32_t k = 0, cum[256], c = 0, lo = 256, hi = 0;
  uint8_t bitmap[32] = {0};
  for (int i = 0; i < 256; i++) {
    cum[i] = c;
    c += f[i];
    if (f[i]) k++, bitmap[i / 8] |= (uint8_t)(1 << (i % 8)), lo = std::min<uint32_t>(lo, i), hi = i;
  }
  if (lean) {
    put(s, lo, 1);
    put(s, hi, 1);
    put(s, k, 2);
  } else {
    put(s, k, 2);
    put(s, 0, 2);
  }
  if (lean && 2 * (hi - lo + 1) <= 32 + 2 * k) {  // range form: no more bytes than the bitmap form
    for (uint32_t i = lo; i <= hi; i++) put(s, f[i], 2);
  } else {
    s.insert(s.end(), bitmap, bitmap + 32);
    for (int i = 0; i < 256; i++)
      if (f[i]) put(s, f[i], 2);
  }
  pad(s, 0, 4);
  uint64_t n = plane.size();
  for (uint64_t base = 0; base < n; base += UZIP_ANS_SEG_SYMS) {
    uint64_t len = n - base < UZIP_ANS_SEG_SYMS ? n - base : UZIP_ANS_SEG_SYMS;
    uint32_t x[32];
    const uint32_t E = seedDtype ? (uzip_dtype_width(seedDtype) == 4 ? 1 : 2) : 0;
    const bool seeded = E && len % 32 == 0 && len >= 32 * E;
    const uint32_t k0 = seeded ? 8 * E * uzip_dtype_rem_width(seedDtype) : 0;
    for (int l = 0; l < 32; l++) x[l] = seeded ? (1u << k0) + seeds[32 * (base / UZIP_ANS_SEG_SYMS) + l] : UZIP_ANS_L;
    std::vector<uint16_t> words;
    uint64_t steps = (len + 31) / 32;
    for (int64_t t = (int64_t)steps - 1; t >= 0; t--)
      for (int l = 31; l >= 0; l--) {
        uint64_t k2 = (uint64_t)t * 32 + l;
        if (k2 >= len) continue;
        uint8_t sym = plane[base + k2];
        uint16_t w;
        if (uzip_ans_encode(&x[l], f[sym], cum[sym], &w)) words.push_back(w);
      }
    put(s, words.size(), 4);
    for (int l = 0; l < 32; l++) put(s, x[l], 4);
    for (size_t i = words.size(); i-- > 0;) put(s, words[i], 2);
    pad(s, 0, 4);
  }
  return s;
}

// Appends one plane section (values of `unit` bytes), returns its mode. sampleBytes: a remainder plane's
// sample (FORMAT.md "Choosing a mode" step 2), 0 for a symbol plane; remainder: a remainder plane (step 3's
// limit is 15/16 of raw).
static inline uint32_t plane_section(std::vector<uint8_t>& out, const std::vector<uint8_t>& plane, uint32_t unit,
                                     uint64_t sampleBytes, bool remainder, bool lean = false, uint32_t seedDtype = 0,
                                     const uint32_t* seeds = nullptr) {
  size_t from = out.size();
  bool same = true;
  for (size_t i = unit; i < plane.size() && same; i++) same = plane[i] == plane[i - unit];
  uint32_t mode;
  if (same) {
    out.insert(out.end(), plane.begin(), plane.begin() + unit);
    mode = UZIP_MODE_CONST;
  } else {
    bool sampleRaw = false;
    if (sampleBytes > 0 && sampleBytes < plane.size()) {
      uint32_t sc[256] = {0}, sf[256], sk = 0;
      for (uint64_t i = 0; i < sampleBytes; i++) sc[plane[i]]++;
      uzip_normalize_freqs(sc, (uint32_t)sampleBytes, sf);
      for (int i = 0; i < 256; i++) sk += sf[i] != 0;
      const uint64_t bits = uzip_cost_bits256(sc, sf, kCost);
      const uint64_t scaled = (bits * plane.size() + 2048 * sampleBytes - 1) / (2048 * sampleBytes);
      // A remainder plane is ANS only under 15/16 of raw (uzip_ans_est_limit), its sample likewise.
      sampleRaw = uzip_ans_table_bytes(sk) + uzip_ans_nseg(plane.size()) * 132ull + scaled >=
                  plane.size() - plane.size() / 16;
    }
    uint32_t counts[256] = {0}, f[256];
    for (uint8_t b : plane) counts[b]++;
    uzip_normalize_freqs(counts, (uint32_t)plane.size(), f);
    uint32_t k = 0;
    for (int i = 0; i < 256; i++) k += f[i] != 0;
    uint64_t est = uzip_ans_table_bytes(k) + uzip_ans_nseg(plane.size()) * 132ull +
                   (uzip_cost_bits256(counts, f, kCost) + 2047) / 2048;
    const uint64_t limit = remainder ? plane.size() - plane.size() / 16 : plane.size();
    std::vector<uint8_t> a;
    if (!sampleRaw && est < limit) a = ans_section(plane, f, lean, seedDtype, seeds);
    if (!sampleRaw && est < limit && a.size() < plane.size()) {
      out.insert(out.end(), a.begin(), a.end());
      mode = UZIP_MODE_ANS;
    } else {
      out.insert(out.end(), plane.begin(), plane.end());
      mode = UZIP_MODE_RAW;
    }
  }
  pad(out, from, 16);
  return mode;
}

static inline uint32_t rd(const uint8_t* p, uint32_t w) {
  uint32_t v = 0;
  memcpy(&v, p, w);
  return v;
}

static inline std::vector<uint8_t> compress(const uint8_t* src, uint64_t n, uint32_t dtype, uint32_t flags,
                                            uint32_t lg) {
  const uint32_t w = uzip_dtype_width(dtype), rw = uzip_dtype_rem_width(dtype);
  const bool split = flags & UZIP_FLAG_SPLIT;
  uint64_t nb = uzip_nblocks(n, lg);
  const bool lean = flags & UZIP_FLAG_LEAN, seededStream = lean && split && rw > 0;
  std::vector<uint8_t> payload, splitplane;
  std::vector<uint64_t> dir;
  for (uint64_t b = 0; b < nb; b++) {
    uint64_t m = uzip_block_len(n, lg, b), first = b << lg;
    std::vector<uint8_t> sym, rem;
    for (uint64_t i = 0; i < m; i++) {
      uint32_t v = rd(src + (first + i) * w, w);
      sym.push_back((uint8_t)uzip_symbol_of(v, w));
      put(rem, uzip_remainder_of(v, w), rw);
    }
    // Seeded segments (LEAN, split): the last E steps' remainders ride in the lanes' first states.
    std::vector<uint32_t> seeds;
    std::vector<uint8_t> seedSection;
    for (uint64_t base = 0; base < m; base += UZIP_ANS_SEG_SYMS) {
      const uint64_t len = std::min<uint64_t>(m - base, UZIP_ANS_SEG_SYMS);
      const uint32_t E = w == 4 ? 1 : 2;
      const bool seeded = seededStream && len % 32 == 0 && len >= 32 * E;
      const uint64_t kept = seeded ? len - 32 * E : len;
      if (split) splitplane.insert(splitplane.end(), rem.begin() + base * rw, rem.begin() + (base + kept) * rw);
      seeds.resize(seeds.size() + 32, 0);
      if (!seeded) continue;
      seedSection.insert(seedSection.end(), rem.begin() + (base + kept) * rw, rem.begin() + (base + len) * rw);
      for (uint32_t l = 0; l < 32; l++) {
        uint64_t bits = 0;
        for (uint32_t e = 0; e < E; e++)  // lane l's elements base + kept + 32 e + l, in element order
          bits |= (uint64_t)uzip_remainder_of(rd(src + (first + base + kept + 32 * e + l) * w, w), w) << (8 * rw * e);
        seeds[seeds.size() - 32 + l] = (uint32_t)bits;
      }
    }
    uint32_t sm = plane_section(payload, sym, 1, 0, false, lean, seededStream ? dtype : 0, seeds.data()),
             rm = UZIP_MODE_NONE;
    if (sm != UZIP_MODE_ANS) payload.insert(payload.end(), seedSection.begin(), seedSection.end());
    const uint64_t sample = rw > 0 ? std::min<uint64_t>(m, 1024) * rw : 0;  // every remainder plane (FORMAT.md)
    if (w > 1) rm = split ? UZIP_MODE_EXTERNAL : plane_section(payload, rem, rw, sample, true, lean);
    dir.push_back(uzip_dir_entry(payload.size(), sm, rm));
  }
  std::vector<uint8_t> s(64, 0);
  if (split) {
    s.insert(s.end(), splitplane.begin(), splitplane.end());
    pad(s, 0, 16);
  }
  for (uint64_t e : dir) put(s, e, 8);
  pad(s, 0, 16);
  s.insert(s.end(), payload.begin(), payload.end());
  uint8_t* h = s.data();
  uint32_t magic = UZIP_MAGIC;
  memcpy(h, &magic, 4);
  h[4] = 2, h[5] = (uint8_t)dtype, h[6] = (uint8_t)flags, h[7] = (uint8_t)lg;
  uint64_t f64[6] = {n, s.size(), 0, 0, 0, 0};
  memcpy(h + 8, &f64[0], 8);
  memcpy(h + 16, &f64[1], 8);
  uint32_t nb32 = (uint32_t)nb;
  memcpy(h + 24, &nb32, 4);
  if (flags & UZIP_FLAG_CHECKSUM) {
    uint64_t bytes = n * w;
    uint32_t sum = 0;
    for (uint64_t j = 0; j * 4 < bytes; j++) {
      uint8_t word[4] = {0, 0, 0, 0};
      memcpy(word, src + 4 * j, bytes - 4 * j < 4 ? bytes - 4 * j : 4);
      sum += uzip_checksum_term(rd(word, 4), j);
    }
    uint32_t c = uzip_checksum_final(sum, bytes);
    memcpy(h + 28, &c, 4);
  }
  uint64_t remo = split ? 64 : 0, diro = uzip_dir_offset(n, dtype, flags, lg), payo = uzip_payload_offset(n, dtype, flags, lg);
  memcpy(h + 32, &remo, 8);
  memcpy(h + 40, &diro, 8);
  memcpy(h + 48, &payo, 8);
  uint32_t words[14];
  memcpy(words, h, 56);
  uint32_t chk = uzip_header_check(words);
  memcpy(h + 56, &chk, 4);
  return s;
}

}  // namespace ref
