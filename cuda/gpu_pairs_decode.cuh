// GPU decoder of pair-coded blocks (FORMAT.md "Pair coding", pairs_format.h) in the split layout, called per
// block by decompress_kernel<..., DEC_CODING_PAIRS> (gpu_decode.cuh; uzipGpuDecompressPairs). One warp per
// block: it validates the section as the CPU decoder does (cpu_pairs.cc pairs_decode_section), builds the
// 4096-slot table (a u8 pair symbol a slot, then the pair's entry), and decodes each segment forwards as the
// byte decoder does an ANS segment (32 interleaved lanes, the words through a cp.async ring, the step of
// dec_vec_step at 12 bits), one pair of elements a lane step. A group of U steps leaves its pair codes in
// shared memory; each lane then owns U consecutive pairs (2 U elements), maps each pair code to its two
// symbols by a 256-entry table, joins them with their remainders and stores them as vectors. Escapes (code
// 15) take their symbols from the section in element order, ranked by warp ballots, in a branch the common
// group skips. Every read stays inside the section and every write inside the block's output, whatever the
// stream holds.
#pragma once

namespace uzip_gpu {

// Shared memory of a warp: the slot table (u8: the slot's pair symbol); the pair entries (u32: (pair | f << 20) -
// (cum << 8), so that entry + (slot << 8) is pair | (slot - cum) << 8 | f << 20 and the step is dec_vec_step's
// at 12 bits after a second lookup); the pair table (u32: symbol of the first element | of the second << 8 |
// escape flags in bits 16 and 24); the word ring (RingPairsDec), which aliases the build's bitmap of first
// slots; a group's pair codes (32 U bytes), which alias the head check's map of the codes' symbols and the
// build's list of present pairs (256 bytes each). 7936 bytes a warp: the registers, not shared memory, bound
// the warps an SM holds. (A u32 slot table, 16 KB, one lookup on the chain, allowed 12 warps, at 42% issue
// (ncu, 2-ring-depth); this one 16, and decoded bf16 256 MiB / 1 GiB / 4 GiB 1.038 / 1.191 / 1.391 -> 1.185 /
// 1.283 / 1.471 TB/s, real weights +7-12%, fp32 +8%: bench/results/h200-2026-12-04T1853-session32/8-u8-table.)
constexpr uint32_t PAIRS_DEC_U = 8u;
constexpr uint32_t PAIRS_DEC_TAB = 0u, PAIRS_DEC_INFO = UZIP_PAIRS_M, PAIRS_DEC_PSYM = PAIRS_DEC_INFO + 1024u;
constexpr uint32_t PAIRS_DEC_RING = PAIRS_DEC_PSYM + 1024u;
// The ring: 4 quarters of 128 words and a copy of quarters 0 and 1; three quarters landed at each
// ring_advance, so a group of 8 steps (at most 256 words) reads past `next` with no wrap mask and no ring
// move: the group is one basic block, which the software pipeline below needs. (Two landed, two in flight and
// a ring check every 4 steps measured level: bench/results/h200-2026-12-04T1853-session32/2-ring-depth.)
using RingPairsDec = RingShape<128u, true, 3u>;
constexpr uint32_t PAIRS_DEC_SYMS = PAIRS_DEC_RING + RingPairsDec::BYTES;
constexpr uint32_t PAIRS_DEC_WARP_BYTES = PAIRS_DEC_SYMS + 32u * PAIRS_DEC_U;
static_assert(32u * PAIRS_DEC_U >= 256u, "the group's codes alias the 256-byte map of code symbols");
static_assert(32u * PAIRS_DEC_U <= (RingPairsDec::LANDED - 1u) * RingPairsDec::QW, "a group reads within the landed words");
static_assert(PAIRS_DEC_SYMS - PAIRS_DEC_RING >= 512u, "the ring holds the 128-word bitmap of first slots");
static_assert(5u * (4u * PAIRS_DEC_WARP_BYTES + 1024u) <= 228u * 1024u, "5 CTAs of 4 warps fit an H100/H200 SM");
constexpr uint32_t PAIRS_DEC_ESC_A = 1u << 16, PAIRS_DEC_ESC_B = 1u << 24;

// Validates the section head (the rules of FORMAT.md's "A decoder checks", as pairs_decode_section) and
// builds the slot and pair tables. Returns the head's bytes (56 + escapes, padded to 4), 0 when corrupt.
__device__ __forceinline__ uint32_t pairs_dec_tables(const uint8_t* ps, uint64_t avail, uint32_t m, uint8_t* sm,
                                                     uint32_t* nescOut) {
  const uint32_t lane = lane_id(), c = lane & 15u, lt = lanemask_lt();
  if (avail < UZIP_PAIRS_HEAD_BYTES) return 0;
  const uint32_t n = ps[0], nesc = *(const uint32_t*)(ps + 4);
  const uint32_t symLane = ps[8u + c], myMf = *(const uint16_t*)(ps + 24u + 2u * c);
  const bool named = c < n, present = c < UZIP_PAIRS_ESC ? named : nesc > 0;
  bool bad = n < 2u || n > UZIP_PAIRS_ESC || ps[1] != 0 || *(const uint16_t*)(ps + 2) != 0;
  bad |= (!named && symLane != 0) || ((myMf != 0) != present);
  // The named codes' symbols distinct: a lane below 16 matches only itself.
  bad |= __popc(__match_any_sync(FULL_MASK, lane < 16u && named ? symLane : 512u + lane)) != 1;
  bad |= __reduce_add_sync(FULL_MASK, lane < 16u ? myMf : 0u) != UZIP_PAIRS_M;
  bad |= nesc > m || (nesc && n < UZIP_PAIRS_ESC);
  if (__any_sync(FULL_MASK, bad)) return 0;
  const uint32_t head = (uint32_t)uzip_pairs_head_bytes(nesc);
  if (head > avail) return 0;
  // Escapes: none the symbol of a code; zero padding.
  uint8_t* isCode = sm + PAIRS_DEC_SYMS;
  *(uint2*)(isCode + 8u * lane) = make_uint2(0u, 0u);
  __syncwarp();
  if (lane < 16u && named) isCode[symLane] = 1;
  __syncwarp();
  const uint8_t* esc = ps + UZIP_PAIRS_HEAD_BYTES;
  for (uint32_t i = lane; i < head - UZIP_PAIRS_HEAD_BYTES; i += 32u) {
    const uint32_t v = esc[i];
    bad |= i < nesc ? isCode[v] != 0 : v != 0;
  }
  if (__any_sync(FULL_MASK, bad)) return 0;

  // Pair frequencies and their cumulative sums (pair s = lane + 32 i in row i).
  const uint32_t bk = __reduce_max_sync(FULL_MASK, lane < 16u ? (myMf << 4) | (15u - c) : 0u);
  uint32_t pf[8], cum[8], carry = 0;
  pairs_warp_pair_freqs(myMf, 15u - (bk & 15u), pf);
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    cum[i] = carry + warp_excl_scan(pf[i]);
    carry += __reduce_add_sync(FULL_MASK, pf[i]);
  }
  // The pair entries, and the slot table by slot rounds, as load_ans_table's bitmap fill: the present pairs
  // in order (list[r] for the r-th) and the bitmap of their first slots; slot 32 j + lane belongs to the last
  // pair starting at or below it.
  uint8_t* tab = sm + PAIRS_DEC_TAB;
  uint32_t* info = (uint32_t*)(sm + PAIRS_DEC_INFO);
  uint8_t* list = sm + PAIRS_DEC_SYMS;
  uint32_t* bm = (uint32_t*)(sm + PAIRS_DEC_RING);
#pragma unroll
  for (uint32_t i = 0; i < UZIP_PAIRS_M / 32u / 32u; i++) bm[lane + 32u * i] = 0u;
  __syncwarp();
  uint32_t before = 0;
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    const uint32_t has = __ballot_sync(FULL_MASK, pf[i] != 0);
    info[lane + 32u * i] = ((lane + 32u * i) | (pf[i] << 20)) - (cum[i] << 8);
    if (pf[i]) {
      list[before + __popc(has & lt)] = (uint8_t)(lane + 32u * i);
      atomicOr(&bm[cum[i] >> 5], 1u << (cum[i] & 31u));
    }
    before += __popc(has);
  }
  __syncwarp();
  const uint32_t le = lt | (1u << lane);
  before = 0;
#pragma unroll 8
  for (uint32_t j = 0; j < UZIP_PAIRS_M / 32u; j++) {
    const uint32_t w = bm[j];
    tab[32u * j + lane] = list[before + __popc(w & le) - 1u];
    before += __popc(w);
  }
  __syncwarp();
  uint32_t* psym = (uint32_t*)(sm + PAIRS_DEC_PSYM);
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    const uint32_t a = c, b = (lane >> 4) + 2u * i;  // the codes of pair lane + 32 i
    const uint32_t sa = __shfl_sync(FULL_MASK, symLane, a), sb = __shfl_sync(FULL_MASK, symLane, b);
    psym[lane + 32u * i] =
        sa | (sb << 8) | (a == UZIP_PAIRS_ESC ? PAIRS_DEC_ESC_A : 0u) | (b == UZIP_PAIRS_ESC ? PAIRS_DEC_ESC_B : 0u);
  }
  __syncwarp();
  *nescOut = nesc;
  return head;
}

// Escaped elements of a group: e[i] is the pair table entry of this lane's i-th pair, whose flagged
// symbols are replaced by the next escapes in element order (this lane's pairs in order, lanes in order).
// False when they would pass the section's nesc escapes.
template <int N>
__device__ __forceinline__ bool pairs_dec_escapes(uint32_t (&e)[N], const uint8_t* esc, uint32_t nesc,
                                                  uint32_t& escNext) {
  uint32_t cnt = 0;
#pragma unroll
  for (int i = 0; i < N; i++) cnt += ((e[i] >> 16) & 1u) + ((e[i] >> 24) & 1u);
  // The warp's total and this lane's exclusive prefix, bit-sliced (cnt <= 2 N): independent ballots instead
  // of a chain of dependent shuffles, as this runs in most groups of real weights' blocks (escapes there are
  // ~1%: a few in every group of 512 elements).
  constexpr int BITS = N >= 8 ? 5 : N >= 4 ? 4 : N >= 2 ? 3 : 2;
  static_assert(2 * N < (1 << BITS), "cnt fits the slices");
  const uint32_t lt = lanemask_lt();
  uint32_t tot = 0, ex = 0;
#pragma unroll
  for (int k = 0; k < BITS; k++) {
    const uint32_t b = __ballot_sync(FULL_MASK, (cnt >> k) & 1u);
    tot += (uint32_t)__popc(b) << k;
    ex += (uint32_t)__popc(b & lt) << k;
  }
  if (escNext + tot > nesc) return false;
  uint32_t r = escNext + ex;
#pragma unroll
  for (int i = 0; i < N; i++) {
    if (e[i] & PAIRS_DEC_ESC_A) e[i] = (e[i] & ~0xFFu) | __ldg(esc + r++);
    if (e[i] & PAIRS_DEC_ESC_B) e[i] = (e[i] & ~0xFF00u) | ((uint32_t)__ldg(esc + r++) << 8);
  }
  escNext += tot;
  return true;
}

// One step of the vector path (dec_vec_step at 12 bits, through the u8 slot table and the pair entries at
// infoS): returns the entry pair | (slot - cum) << 8 | f << 20.
__device__ __forceinline__ uint32_t pairs_dec_vec_step(uint32_t& x, uint32_t& gS, uint32_t tabS, uint32_t infoS,
                                                       uint32_t lt) {
  uint32_t e;
  asm volatile(
      "{\n\t.reg .pred p;\n\t.reg .b32 a, f, h, m, w, s;\n\t"
      "and.b32 s, %0, 4095;\n\t"
      "add.u32 a, s, %3;\n\t"
      "ld.shared.u8 f, [a];\n\t"
      "mad.lo.u32 a, f, 4, %5;\n\t"
      "ld.shared.u32 %2, [a];\n\t"
      "shl.b32 s, s, 8;\n\t"
      "add.u32 %2, %2, s;\n\t" DEC_VEC_STEP_CHAIN("12") DEC_VEC_STEP_WORD
      : "+r"(x), "+r"(gS), "=r"(e)
      : "r"(tabS), "r"(lt), "r"(infoS));
  return e;
}
// One step of the one-at-a-time path (dec_step_entry after the two lookups); false when the words run out.
__device__ __forceinline__ bool pairs_dec_step(uint32_t& x, uint32_t& next, uint32_t nw, bool active, const uint8_t* tab,
                                               const uint32_t* info, WordRing& wr, uint32_t lt, uint32_t& p) {
  const uint32_t slot = x & (UZIP_PAIRS_M - 1u), e = info[tab[slot]] + (slot << 8);
  p = dec_sym(e);
  return dec_step_entry<RingPairsDec, UZIP_PAIRS_PROB_BITS>(x, next, nw, active, e, wr, lt);
}

// Decodes one segment (len pairs, the block's pairs pb ..) of a block of m elements: whole groups of U
// steps on the vector path (dst 16-byte aligned; steps whose 32 pairs are all whole), then the remaining
// steps one at a time. False when corrupt.
template <int W>
__device__ __forceinline__ bool pairs_decode_segment(uint32_t len, uint32_t pb, uint32_t m, bool dst16, uint32_t nw,
                                                     uint32_t& x, uint32_t& next, WordRing& wr, uint8_t* sm,
                                                     const uint8_t* esc, uint32_t nesc, uint32_t& escNext,
                                                     const uint8_t* rem, uint8_t* out) {
  constexpr uint32_t U = PAIRS_DEC_U, RW = W - 1, RN = 2u * U * RW / 4u;
  using RS = RingPairsDec;
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const uint8_t* tab = sm + PAIRS_DEC_TAB;
  const uint32_t* info = (const uint32_t*)(sm + PAIRS_DEC_INFO);
  const uint32_t* psym = (const uint32_t*)(sm + PAIRS_DEC_PSYM);
  uint8_t* syms = sm + PAIRS_DEC_SYMS;
  const uint32_t tabS = (uint32_t)__cvta_generic_to_shared(tab), infoS = (uint32_t)__cvta_generic_to_shared(info);
  const uint32_t T = (len + 31u) / 32u, whole = min(len, m / 2u - pb);
  const uint32_t G = dst16 ? whole / 32u / U : 0u;
  // Vector groups: lane l owns the group's pairs U l .. U l + U - 1 (elements 2 U l ..). Software-pipelined:
  // the steps of group g run with the join and stores of group g - 1 between them (registers only: its pair
  // table entries ep and remainders rp), so that the join's independent instructions fill the chain's
  // latency; a group's remainders load two groups before its join.
  constexpr uint32_t GS = 64u * U * RW, GO = 64u * U * W;  // a group's remainder and output bytes
  const uint8_t* remP = rem + (size_t)(2u * pb + 2u * U * lane) * RW;
  uint8_t* outP = out + (size_t)(2u * pb + 2u * U * lane) * W;
  uint32_t ep[U], rp[RN], rn[RN], rf[RN];
  if (G) ld_words<RN>(rn, remP);
  bool ok = true;
  auto group = [&](auto storeTag) {
    constexpr bool STORE = decltype(storeTag)::value;
    ring_advance<RS>(wr, next);
    const uint32_t gS0 = (uint32_t)__cvta_generic_to_shared(wr.ring + (next & (4u * RS::QW - 1u)));
    uint32_t gS = gS0, ow[U * W / 2];
#pragma unroll
    for (uint32_t u = 0; u < U; u++) {
      syms[32u * u + lane] = (uint8_t)dec_sym(pairs_dec_vec_step(x, gS, tabS, infoS, lt));
      if (STORE && (u & 1u)) {
        const uint32_t j = u / 2u;
        join4<W>(__byte_perm(ep[2u * j], ep[2u * j + 1u], 0x5410), rp + j * RW, ow + j * W);
      }
    }
    next += (gS - gS0) >> 1;
    if (STORE) {
      st_words<U * W / 2>(outP, ow);
      outP += GO;
    }
    __syncwarp();
    uint32_t pc[U / 4], any = 0;
    ld_words<U / 4, true>(pc, syms + U * lane);
    __syncwarp();  // every lane's reads before the next group's stores
#pragma unroll
    for (uint32_t i = 0; i < U; i++) {
      ep[i] = psym[(pc[i / 4u] >> (8u * (i % 4u))) & 0xFFu];
      any |= ep[i];
    }
    if (__any_sync(FULL_MASK, any & (PAIRS_DEC_ESC_A | PAIRS_DEC_ESC_B)))
      ok = ok && pairs_dec_escapes<U>(ep, esc, nesc, escNext);
#pragma unroll
    for (uint32_t i = 0; i < RN; i++) rp[i] = rn[i], rn[i] = rf[i];
  };
  if (G) {
    if (G > 1u) ld_words<RN>(rf, remP + GS);
    group(std::false_type{});
  }
  for (uint32_t g = 1; g < G && ok; g++) {
    if (g + 1u < G) ld_words<RN>(rf, remP + (g + 1u) * GS);
    group(std::true_type{});
  }
  if (!ok) return false;
  if (G) {  // the last group's join
    uint32_t ow[U * W / 2];
#pragma unroll
    for (uint32_t j = 0; j < U / 2u; j++)
      join4<W>(__byte_perm(ep[2u * j], ep[2u * j + 1u], 0x5410), rp + j * RW, ow + j * W);
    st_words<U * W / 2>(outP, ow);
  }
  // The other steps: lane l decodes pair 32 t + l (elements i0, i0 + 1; an odd block's last pair has code 0
  // for its missing second element).
  for (uint32_t t = G * U; t < T; t++) {
    const uint32_t k = 32u * t + lane, i0 = 2u * (pb + k);
    const bool active = k < len, hasB = active && i0 + 1u < m;
    uint32_t p;
    if (!pairs_dec_step(x, next, nw, active, tab, info, wr, lt, p)) return false;
    if (__any_sync(FULL_MASK, active && !hasB && (p >> 4) != 0)) return false;
    uint32_t e[1] = {active ? psym[p] : 0u};
    if (!hasB) e[0] &= ~PAIRS_DEC_ESC_B;
    if (__any_sync(FULL_MASK, e[0] & (PAIRS_DEC_ESC_A | PAIRS_DEC_ESC_B)) && !pairs_dec_escapes<1>(e, esc, nesc, escNext))
      return false;
    if (active) store_elem<W>(out + (size_t)i0 * W, uzip_join(e[0] & 0xFFu, lanes_rem_at<W>(rem, i0), W));
    if (hasB) store_elem<W>(out + (size_t)(i0 + 1u) * W, uzip_join((e[0] >> 8) & 0xFFu, lanes_rem_at<W>(rem, i0 + 1u), W));
  }
  return true;
}

// Decodes block b of a PAIRS stream (split layout) into dst; returns 0 or a status. sm: PAIRS_DEC_WARP_BYTES.
template <int W>
__device__ uint32_t pairs_decode_block(const DecParams& P, const Hdr& h, uint8_t* sm, uint64_t b, uint32_t* csumAcc) {
  static_assert(W == 2 || W == 4, "pair coding is for bf16 and fp32");
  const uint32_t lane = lane_id();
  if (!(h.flags & UZIP_FLAG_SPLIT)) return UZIP_ERR_UNSUPPORTED;  // the default layout: the CPU codec reads it
  SplitBlock k;
  if (!split_block_open<W>(P, h, b, k)) return UZIP_ERR_CORRUPT;
  const auto [smode, m, start, avail, ps, rem, out] = k;

  if (smode == UZIP_MODE_RAW || smode == UZIP_MODE_CONST) {
    if (!split_plain_block<W>(smode == UZIP_MODE_CONST, ps, avail, m, rem, out)) return UZIP_ERR_CORRUPT;
  } else if (smode == UZIP_MODE_PAIRS) {
    uint32_t nesc = 0;
    const uint32_t head = pairs_dec_tables(ps, avail, m, sm, &nesc);
    if (!head) return UZIP_ERR_CORRUPT;
    const bool dst16 = ((uintptr_t)P.dst & 15u) == 0;
    const uint32_t np = uzip_pairs_count(m);
    uint64_t pos = head;
    uint32_t escNext = 0;
    for (uint32_t pb = 0; pb < np; pb += UZIP_ANS_SEG_SYMS) {
      const uint32_t len = min(np - pb, UZIP_ANS_SEG_SYMS);
      if (avail - pos < UZIP_ANS_SEG_HEADER_BYTES) return UZIP_ERR_CORRUPT;
      const uint8_t* seg = ps + pos;
      const uint32_t nw = *(const uint32_t*)seg;
      const uint64_t bytes = UZIP_ANS_SEG_HEADER_BYTES + 2ull * nw, padded = (bytes + 3u) & ~3ull;
      // A pair step takes at most one word.
      if (nw > len || padded > avail - pos) return UZIP_ERR_CORRUPT;
      if (padded != bytes && *(const uint16_t*)(seg + bytes) != 0) return UZIP_ERR_CORRUPT;
      uint32_t x = *(const uint32_t*)(seg + 4u + 4u * lane), next = 0;
      if (__any_sync(FULL_MASK, x < UZIP_ANS_L || x >= UZIP_ANS_X_END)) return UZIP_ERR_CORRUPT;
      WordRing wr;
      ring_init<RingPairsDec>(wr, sm + PAIRS_DEC_RING, seg + UZIP_ANS_SEG_HEADER_BYTES, nw);
      const bool ok = pairs_decode_segment<W>(len, pb, m, dst16, nw, x, next, wr, sm, ps + UZIP_PAIRS_HEAD_BYTES, nesc,
                                              escNext, rem, out);
      ring_end();  // no copy may still be landing in the ring when it is reused
      if (!ok || !segment_closed(next, nw, x)) return UZIP_ERR_CORRUPT;
      pos += padded;
    }
    // Every escape used; the section smaller than the plane, exactly its directory size with zero padding.
    if (escNext != nesc || pos >= m || uzip_pad16(pos) != avail) return UZIP_ERR_CORRUPT;
    if (__any_sync(FULL_MASK, lane < avail - pos && ps[pos + lane] != 0)) return UZIP_ERR_CORRUPT;
  } else {
    return UZIP_ERR_CORRUPT;
  }
  split_block_checksum<W>(h, k, csumAcc);
  return 0;
}

}  // namespace uzip_gpu
