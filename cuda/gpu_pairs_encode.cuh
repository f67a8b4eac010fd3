// GPU encoder of pair coding (FORMAT.md "Pair coding", pairs_format.h) for bf16 and fp32 in the split
// layout: one warp per block, blocks handed out by ticket, output offsets by the decoupled look-back of
// gpu_encode.cuh, the same bytes as the CPU reference (cpu_pairs.cc).
//
// A block takes two passes over its input (the second from L2):
//   A. 16-byte chunks (chunk j to lane j % 32): remainders to the split plane, the symbols' histogram (8
//      sub-histograms in shared memory against same-address conflicts), min and max, checksum terms;
//   B. after the warp ranked the codes and built the pair table, the 32 lanes code the block's pairs as
//      the 32 interleaved rANS lanes of the format (pair k: lane k % 32, step k / 32), walking the steps
//      backwards; a step's words go down a global stage by ballot and rank, its escapes (rare) by rank too.
// Then the section's size goes to the look-back and the section is copied out of the stage.
// One segment a block: blocks of at most 2^15 elements (gpu_codec.cu refuses larger ones).
#pragma once

#include "gpu_lanes_encode.cuh"
#include "gpu_pairs_common.cuh"

namespace uzip_gpu {

// Shared memory of one warp: 8 sub-histograms of 256 u32 during pass A; then the pair table (256 uint4
// {rcp, f, cum, f << 20}), the code of each symbol (256 bytes), the codes' symbols (16 bytes). After them the
// cp.async ring the passes read the block through (ncu of the first form, bf16 1 GiB: 39% of the stall
// samples on pass A's first uses of its register-ring loads, 20% on pass B's, which shared one scoreboard;
// bench/results/h200-2026-12-04T1540-session31/5-pairs-ncu): pass A's 4 chunks of 512 bytes, then pass B's
// PAIRS_RING groups of U = 8 steps (32 lanes x 8 pairs: 1 KB bf16, 2 KB fp32).
constexpr uint32_t PAIRS_ENC_TAB_BYTES = 8u * 1024u, PAIRS_U = 8u;
template <int W>
struct PairsRing {
  static constexpr uint32_t GROUPS = W == 2 ? 3u : 2u, GROUP_BYTES = 32u * PAIRS_U * 2u * W;
  static constexpr uint32_t BYTES = GROUPS * GROUP_BYTES > 2048u ? GROUPS * GROUP_BYTES : 2048u;
};
template <int W>
__host__ __device__ constexpr uint32_t pairs_enc_warp_bytes() { return PAIRS_ENC_TAB_BYTES + PairsRing<W>::BYTES; }
// The table's entries are swizzled (pairs_tab_pos) and pass B looks the second element's code up in a
// second table that holds it already shifted and swizzled (codeB), so that the common pairs (codes 0..3 both)
// spread over all 8 groups of 4 banks: unswizzled they shared 4 (ncu, call 7: shared loads 4.3-way in
// conflict, the memory pipe at 88%, bench/results/h200-2026-12-04T1540-session31/7-pairs-ncu2).
constexpr uint32_t PAIRS_ENC_CODE_OFF = 4096u, PAIRS_ENC_CODEB_OFF = 4096u + 256u, PAIRS_ENC_SYMC_OFF = 4096u + 512u;
__device__ __forceinline__ uint32_t pairs_tab_pos(uint32_t s) { return s ^ ((s >> 2) & 4u); }
__device__ __forceinline__ uint32_t pairs_code_b(uint32_t c) { return (c << 4) ^ ((c & 1u) << 2); }
constexpr uint32_t PAIRS_ESC_B = (UZIP_PAIRS_ESC << 4) ^ 4u;  // pairs_code_b(15)
constexpr uint32_t PAIRS_LOG2_BLOCK_MAX = 15u;  // one segment of 16384 pairs
// Global stage per warp: 512 bytes of slack (a group of steps may place up to 256 words below the limit
// before the check after it), words (fewer than m / 2: the section is smaller than the m-byte plane),
// escapes (fewer than m bytes), 64 bytes of slack.
constexpr uint32_t PAIRS_STAGE_SLACK = 512u;
__host__ __device__ inline uint32_t pairs_enc_stage_bytes(uint32_t log2) {
  return PAIRS_STAGE_SLACK + 2u * (1u << log2) + 64u;
}

// The elements of pair k of a block (bf16: one u32, fp32: two), the second 0 past the block's m elements.
template <int W>
__device__ __forceinline__ void pairs_load(const uint8_t* blk, uint32_t k, uint32_t m, bool aligned, uint32_t& a,
                                           uint32_t& b) {
  const uint8_t* p = blk + (size_t)k * 2u * W;
  if (aligned && 2u * k + 1u < m) {
    if (W == 2) {
      const uint32_t v = __ldg((const uint32_t*)p);
      a = v & 0xFFFFu;
      b = v >> 16;
    } else {
      const uint2 v = __ldg((const uint2*)p);
      a = v.x;
      b = v.y;
    }
    return;
  }
  a = load_elem_nc<W>(p);
  b = 2u * k + 1u < m ? load_elem_nc<W>(p + W) : 0u;
}

// Pass A over one chunk: histogram, min / max, remainders to the split plane, checksum terms.
template <int W, bool FULL>
__device__ __forceinline__ void pairs_pass_a(const EncParams& P, const uint4& q, uint32_t j, uint64_t first,
                                             uint32_t valid, uint32_t hs, uint32_t& mn, uint32_t& mx,
                                             uint32_t& csum) {
  constexpr uint32_t C = 16u / W;
#pragma unroll
  for (uint32_t e = 0; e < C; e++)
    if (FULL || e < valid) {
      const uint32_t s = lanes_sym<W>(lanes_chunk_elem<W>(q, e));
      mn = min(mn, s);
      mx = max(mx, s);
      asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(hs + 4u * s) : "memory");
    }
  chunk_split_rems<W, FULL>(P, q, j, first, valid, csum);
}

// The table of a block that is not CONST, from the histogram in the union (hist8: 8 x 256 u32): the codes
// (uzip_pairs_codes: 15 rounds of a warp max over count << 8 | 255 - symbol), the code frequencies
// (uzip_pairs_code_freqs, computed alike in every lane), the pair frequencies (uzip_pairs_pair_freqs,
// symbol lane + 32 i in row i) and the encoder entries. Returns n; *nesc, mf (lane c < 16: code c's
// frequency) and the codes' symbols (shared) for the section's head.
__device__ uint32_t pairs_build_table(uint8_t* sm, uint32_t m, uint32_t* nescOut, uint32_t* mfLane) {
  const uint32_t lane = lane_id();
  const uint32_t* hist8 = (const uint32_t*)sm;
  uint32_t key[8];
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    const uint32_t s = lane + 32u * i;
    uint32_t c = 0;
#pragma unroll
    for (uint32_t h = 0; h < 8; h++) c += hist8[256u * h + s];
    key[i] = c ? (c << 8) | (255u - s) : 0u;
  }
  __syncwarp();  // every lane's reads of the histogram before the table overwrites it
  uint4* tab = (uint4*)sm;
  uint8_t* codeOf = sm + PAIRS_ENC_CODE_OFF;
  uint8_t* codeB = sm + PAIRS_ENC_CODEB_OFF;
  uint8_t* symc = sm + PAIRS_ENC_SYMC_OFF;
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) codeOf[lane + 32u * i] = UZIP_PAIRS_ESC, codeB[lane + 32u * i] = PAIRS_ESC_B;
  __syncwarp();
  uint32_t mc[UZIP_PAIRS_CODES], n = 0, coded = 0;
#pragma unroll
  for (uint32_t c = 0; c < UZIP_PAIRS_ESC; c++) {
    uint32_t best = 0;
#pragma unroll
    for (uint32_t i = 0; i < 8; i++) best = max(best, key[i]);
    best = __reduce_max_sync(FULL_MASK, best);
    mc[c] = best >> 8;
    coded += mc[c];
    n += best != 0;
    const uint32_t s = 255u - (best & 255u);
    if (best && (s & 31u) == lane) {
      codeOf[s] = (uint8_t)c;
      codeB[s] = (uint8_t)pairs_code_b(c);
#pragma unroll
      for (uint32_t i = 0; i < 8; i++)
        if (key[i] == best) key[i] = 0;
    }
    if (lane == 0) symc[c] = best ? (uint8_t)s : 0u;
  }
  if (lane == 0) symc[UZIP_PAIRS_ESC] = 0;
  const uint32_t nesc = m - coded;
  mc[UZIP_PAIRS_ESC] = nesc;
  // Code frequencies (every lane alike).
  uint32_t mf[UZIP_PAIRS_CODES], bestc = 0;
  int32_t d = (int32_t)UZIP_PAIRS_M;
  const bool pow2 = (m & (m - 1u)) == 0;  // whole blocks: the division is a shift
  const uint32_t sh = __ffs(m) - 1u;
#pragma unroll
  for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++) {
    const uint32_t num = mc[c] * UZIP_PAIRS_M;
    uint32_t f = mc[c] ? (pow2 ? num >> sh : num / m) : 0u;
    if (mc[c] && f == 0) f = 1;
    mf[c] = f;
    d -= (int32_t)f;
  }
  uint32_t bm = mc[0];
#pragma unroll
  for (uint32_t c = 1; c < UZIP_PAIRS_CODES; c++)
    if (mc[c] > bm) bm = mc[c], bestc = c;
  if (d >= 0) {
#pragma unroll
    for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++)
      if (c == bestc) mf[c] += (uint32_t)d;
  }
  while (d < 0) {
    uint32_t b = 0, bf = mf[0];
#pragma unroll
    for (uint32_t c = 1; c < UZIP_PAIRS_CODES; c++)
      if (mf[c] > bf) bf = mf[c], b = c;
    const uint32_t k = (uint32_t)(-d) < bf - 1u ? (uint32_t)(-d) : bf - 1u;
#pragma unroll
    for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++)
      if (c == b) mf[c] -= k;
    d += (int32_t)k;
  }
  uint32_t myMf = 0, bestMf = 0, bestCode = 0;
#pragma unroll
  for (uint32_t c = 0; c < UZIP_PAIRS_CODES; c++) {
    if ((lane & 15u) == c) myMf = mf[c];
    if (mf[c] > bestMf) bestMf = mf[c], bestCode = c;
  }
  uint32_t pf[8];
  pairs_warp_pair_freqs(myMf, bestCode, pf);
  uint32_t carry = 0;
#pragma unroll
  for (uint32_t i = 0; i < 8; i++) {
    const uint32_t f = pf[i], cum = carry + warp_excl_scan(f);
    carry += warp_sum_u32(f);
    // uzip_ans_enc_entry at 12 bits (unused pairs, f = 0, get f = 1's entry; no step reads it).
    const uzip_ans_enc_sym en = uzip_ans_enc_entry(f ? f : 1u, cum, UZIP_PAIRS_PROB_BITS);
    tab[pairs_tab_pos(lane + 32u * i)] = make_uint4(en.rcp, en.cmpl, en.biasShift, en.bound);
  }
  *nescOut = nesc;
  *mfLane = myMf;
  __syncwarp();
  return n;
}

__device__ __forceinline__ uint32_t lds_u8(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v) : "r"(a));
  return v;
}

// One step of pass B for a lane (uzip_pairs_encode with the entry e = {rcp, cmpl, bias << 5 | shift, f << 19}
// of uzip_ans_enc_entry): shed 16 bits when x >= f << 19, then enc_next's exact quotient; the step's words
// go below pos by ballot and rank, its escapes (code 15; rare) below escLeft in element order (lane 0's
// first and second element, lane 1's, ...). FULL: every lane holds a whole pair. ca: the first element's
// code; cb: the second's as pairs_code_b.
template <bool FULL>
__device__ __forceinline__ void pairs_step(uint32_t& x, const uint4& e, bool valid, bool hasB, uint32_t ca,
                                           uint32_t cb, uint32_t sa, uint32_t sb, uint16_t* words, int32_t& pos,
                                           uint8_t* esc, int32_t& escLeft, uint32_t lt) {
  if (FULL) valid = hasB = true;
  const bool emit = valid && x >= e.w;
  const uint32_t word = x & 0xFFFFu;
  const uint32_t xs = emit ? x >> 16 : x;
  const uint32_t xn = enc_next(xs, e);
  x = valid ? xn : x;
  const uint32_t wm = __ballot_sync(FULL_MASK, emit);
  const int32_t c = __popc(wm);
  if (emit) words[pos - c + __popc(wm & lt)] = (uint16_t)word;
  pos -= c;
  const bool xa = valid && ca == UZIP_PAIRS_ESC, xb = hasB && cb == PAIRS_ESC_B;
  if (__any_sync(FULL_MASK, xa || xb)) {
    const uint32_t ma = __ballot_sync(FULL_MASK, xa), mb = __ballot_sync(FULL_MASK, xb);
    const int32_t start = escLeft - __popc(ma) - __popc(mb);
    const int32_t rk = start + __popc(ma & lt) + __popc(mb & lt);
    if (xa) esc[rk] = (uint8_t)sa;
    if (xb) esc[rk + (xa ? 1 : 0)] = (uint8_t)sb;
    escLeft = start;
  }
}

// Pass B: codes the block's np pairs into the stage (words from wtop down, escapes at esc[]); returns false
// when the words would pass wlo (the section is then not smaller than RAW). x: this lane's final state.
// The encoder walks steps T - 1 .. 0. The steps above the whole groups (a partial last step, an odd block's
// last pair, fewer than U whole steps; every step of an input off its 16-byte alignment) go one at a time
// with guards; then groups of U whole steps, branch-free: a group first looks up every step's codes and
// table entry (shared loads through 32-bit shared addresses, all before the group's global stores: behind a
// store the compiler would have to reload them, on the state's chain) while the next group's elements load,
// then runs the chain.
template <int W>
__device__ __forceinline__ bool pairs_code(const uint8_t* blk, uint32_t m, bool aligned, const uint8_t* sm,
                                           uint16_t* words, int32_t wtop, int32_t wlo, uint8_t* esc,
                                           uint32_t nesc, uint32_t& x, int32_t& pos) {
  constexpr uint32_t U = 8;
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const uint32_t tabS = (uint32_t)__cvta_generic_to_shared(sm), codeS = tabS + PAIRS_ENC_CODE_OFF;
  const uint32_t codeBS = tabS + PAIRS_ENC_CODEB_OFF;
  const uint32_t np = uzip_pairs_count(m), T = (np + 31u) / 32u;
  const uint32_t wholeSteps = aligned ? (m / 2u) / 32u : 0u;  // steps of 32 whole pairs
  const uint32_t G = wholeSteps / U;                           // groups of U whole steps: t < G U
  x = UZIP_ANS_L;
  pos = wtop;
  int32_t escLeft = (int32_t)nesc;
  for (int32_t t = (int32_t)T - 1; t >= (int32_t)(G * U); t--) {
    const uint32_t k = (uint32_t)t * 32u + lane;
    const bool valid = k < np, hasB = 2u * k + 1u < m;
    uint32_t a = 0, b = 0;
    if (valid) pairs_load<W>(blk, k, m, aligned, a, b);
    const uint32_t sa = lanes_sym<W>(a), sb = lanes_sym<W>(b);
    const uint32_t ca = valid ? lds_u8(codeS + sa) : 0u, cb = hasB ? lds_u8(codeBS + sb) : 0u;
    const uint4 e = lds_u4(tabS + 16u * (ca ^ cb));
    pairs_step<false>(x, e, valid, hasB, ca, cb, sa, sb, words, pos, esc, escLeft, lt);
    if (pos < wlo) return false;
  }
  if (G == 0) return true;
  // Whole groups, g = G - 1 .. 0 (steps g U + U - 1 .. g U), read through a cp.async ring of R groups. A
  // group's pairs are one contiguous run of 64 W * U bytes: the warp copies it whole in 16-byte pieces (lane
  // `lane` the pieces lane + 32 i), and each lane reads its pair of step t back from t * 64 W + 2 W lane
  // (conflict-free). A lane reads other lanes' copies, so a __syncwarp follows each wait (cp.async.wait_group
  // covers the lane's own copies only) and precedes each refill (every lane has read the slot): racecheck
  // flagged the form without them (bench/results/h200-2026-12-04T1540-session31/11-whole-lines). (Each lane's own U pairs by 4- or
  // 8-byte copies took U copies and 64-bit addresses a group: ncu, bench/results/h200-2026-12-04T1540-session31/
  // 9-pairs-ncu3.)
  using RG = PairsRing<W>;
  constexpr uint32_t R = RG::GROUPS, PIECES = RG::GROUP_BYTES / 16u / 32u;
  const uint32_t ringS = tabS + PAIRS_ENC_TAB_BYTES;
  auto issue = [&](uint32_t j) {  // the j-th group walked: g = G - 1 - j
    if (j < G) {
      const uint32_t slot = ringS + (j % R) * RG::GROUP_BYTES + 16u * lane;
      const uint8_t* src = blk + (size_t)(G - 1u - j) * RG::GROUP_BYTES + 16u * lane;
#pragma unroll
      for (uint32_t i = 0; i < PIECES; i++)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(slot + 512u * i), "l"(src + 512u * i) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
#pragma unroll
  for (uint32_t j = 0; j < R; j++) issue(j);
  for (uint32_t j = 0; j < G; j++) {  // group G - 1 - j
    asm volatile("cp.async.wait_group %0;" ::"n"(R - 1) : "memory");
    __syncwarp();
    uint32_t ea[U], eb[U];
    const uint32_t slot = ringS + (j % R) * RG::GROUP_BYTES + 2u * W * lane;
#pragma unroll
    for (uint32_t u = 0; u < U; u++) {  // step g U + U - 1 - u: row U - 1 - u of the slot
      const uint32_t a = slot + (U - 1u - u) * 64u * W;
      if (W == 2) {
        uint32_t v;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
        ea[u] = v & 0xFFFFu;
        eb[u] = v >> 16;
      } else {
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(ea[u]), "=r"(eb[u]) : "r"(a));
      }
    }
    uint32_t sa[U], sb[U], ca[U], cb[U];
    uint4 e[U];
#pragma unroll
    for (uint32_t u = 0; u < U; u++) {
      sa[u] = lanes_sym<W>(ea[u]);
      sb[u] = lanes_sym<W>(eb[u]);
      ca[u] = lds_u8(codeS + sa[u]);
      cb[u] = lds_u8(codeBS + sb[u]);
      e[u] = lds_u4(tabS + 16u * (ca[u] ^ cb[u]));
    }
    __syncwarp();  // every lane's reads of the slot before any lane refills it
    issue(j + R);
#pragma unroll
    for (uint32_t u = 0; u < U; u++)
      pairs_step<true>(x, e[u], true, true, ca[u], cb[u], sa[u], sb[u], words, pos, esc, escLeft, lt);
    if (pos < wlo) {  // words placed below wlo (at most 256, into the stage's slack) are dropped
      asm volatile("cp.async.wait_all;" ::: "memory");
      return false;
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  return true;
}

// Copies n 16-bit words from the stage (src, 2-aligned; the stage is readable one word past src + n) to dst
// (4-aligned) as 32-bit words, from aligned loads (two, funnel-shifted, when src is odd), 8 in flight a lane.
__device__ __forceinline__ void pairs_copy_words(uint16_t* dst, const uint16_t* src, uint32_t n) {
  const uint32_t lane = lane_id(), odd = ((uintptr_t)src >> 1) & 1u;
  const uint32_t* s32 = (const uint32_t*)(src - odd);
  uint32_t* d32 = (uint32_t*)dst;
  const uint32_t n32 = n / 2u;
  // Every load of a round before its first use, none under a branch: a lane's index past the end reads the last
  // word again (its store is skipped). With a branch a word (session 52: ncu, 22% of the kernel's stall
  // samples), each load pair waited for its use before the next was issued.
  const uint32_t sh = 16u * odd;
  for (uint32_t i0 = 0; i0 < n32; i0 += 256u) {
    uint32_t lo[8], hi[8];
#pragma unroll
    for (uint32_t u = 0; u < 8; u++) {
      const uint32_t i = min(i0 + 32u * u + lane, n32 - 1u);
      lo[u] = __ldcg(s32 + i);
      hi[u] = odd ? __ldcg(s32 + i + 1u) : 0u;
    }
#pragma unroll
    for (uint32_t u = 0; u < 8; u++) {
      const uint32_t i = i0 + 32u * u + lane;
      if (i < n32) d32[i] = __funnelshift_r(lo[u], hi[u], sh);
    }
  }
  if ((n & 1u) && lane == 0) dst[n - 1u] = __ldcg(src + n - 1u);
}

// A coded block waiting for its output offset: what writing its section needs (the words and escapes stay
// in its stage; x, the code frequency and the code's symbol are this lane's).
struct PairsPlan {
  uint32_t b, mode, used, lo, n, nesc, nw, x, mfLane, symLane;
  int32_t pos;
  uint8_t* stage;
};

// Codes block b into the plan (pass A, the table, pass B into `stage`) and publishes its size for the
// look-back.
template <int W>
__device__ __forceinline__ void pairs_code_block(const EncParams& P, uint8_t* sm, uint32_t b, uint8_t* stage,
                                                 uint32_t* csumAcc, PairsPlan& pl) {
  constexpr uint32_t C = 16u / W;
  const uint32_t lane = lane_id();
  const uint32_t m = uzip_block_len(P.count, P.log2Block, b);
  const uint64_t first = (uint64_t)b << P.log2Block;
  const uint8_t* blk = P.src + first * W;
  const bool aligned = P.srcAligned16 != 0;
  uint16_t* words = (uint16_t*)(stage + PAIRS_STAGE_SLACK);         // m / 2 words
  uint8_t* esc = stage + PAIRS_STAGE_SLACK + (1u << P.log2Block);  // m escape bytes
  uint32_t full;
  bool tail;
  lanes_lane_chunks<W>(m, lane, &full, &tail);

  // Pass A.
  uint32_t* hist8 = (uint32_t*)sm;
#pragma unroll
  for (uint32_t i = 0; i < 64; i++) hist8[lane + 32u * i] = 0;
  __syncwarp();
  const uint32_t hs = (uint32_t)__cvta_generic_to_shared(hist8 + 256u * (lane & 7u));
  uint32_t mn = 0xFFFFFFFFu, mx = 0, csum = 0;
  lanes_each_chunk_async<W, 4>(blk, full, aligned, (uint4*)(sm + PAIRS_ENC_TAB_BYTES), [&](const uint4& q, uint32_t j) {
    pairs_pass_a<W, true>(P, q, j, first, C, hs, mn, mx, csum);
  });
  if (tail) {
    const uint32_t j = m / C;
    pairs_pass_a<W, false>(P, lanes_load_chunk<W>(blk, j, m - j * C, aligned), j, first, m - j * C, hs, mn, mx,
                           csum);
  }
  *csumAcc += csum;
  const uint32_t lo = __reduce_min_sync(FULL_MASK, mn), hi = __reduce_max_sync(FULL_MASK, mx);
  __syncwarp();

  pl.b = b;
  pl.lo = lo;
  pl.stage = stage;
  pl.x = UZIP_ANS_L;
  pl.n = pl.nesc = pl.nw = pl.mfLane = pl.symLane = 0;
  pl.pos = 0;
  if (lo == hi) {
    pl.mode = UZIP_MODE_CONST;
    pl.used = 1;
  } else {
    pl.n = pairs_build_table(sm, m, &pl.nesc, &pl.mfLane);
    pl.symLane = sm[PAIRS_ENC_SYMC_OFF + (lane & 15u)];
    const int32_t wtop = (int32_t)(m / 2u);
    const uint32_t head = (uint32_t)uzip_pairs_head_bytes(pl.nesc);
    // The section is PAIRS only when smaller than m bytes: head + 132 + 2 words (+ 2 of padding) < m.
    const int32_t room = ((int32_t)m - (int32_t)head - (int32_t)UZIP_ANS_SEG_HEADER_BYTES - 1) / 2;
    bool ok = room > 0 && pairs_code<W>(blk, m, aligned, sm, words, wtop, wtop - room, esc, pl.nesc, pl.x, pl.pos);
    pl.nw = (uint32_t)(wtop - pl.pos);
    pl.used = head + UZIP_ANS_SEG_HEADER_BYTES + 2u * pl.nw + 2u * (pl.nw & 1u);
    ok = ok && pl.used < m;
    pl.mode = ok ? UZIP_MODE_PAIRS : UZIP_MODE_RAW;
    if (!ok) pl.used = m;
  }
  lb_publish(P.lookback, b, uzip_pad16(pl.used), P.epoch);
}

// Resolves a planned block's output offset and writes its section from its stage, its directory entry and
// (last block) the split plane's padding.
template <int W>
__device__ __forceinline__ void pairs_finish_block(const EncParams& P, const PairsPlan& pl) {
  const uint32_t lane = lane_id();
  const uint32_t m = uzip_block_len(P.count, P.log2Block, pl.b);
  const uint32_t padded = (uint32_t)uzip_pad16(pl.used);
  const uint64_t excl = lb_resolve(P.lookback, pl.b, padded, P.epoch);
  uint8_t* out = P.dst + P.payloadOff + excl;
  __syncwarp();  // the stage's words and escapes visible to the warp
  if (pl.mode == UZIP_MODE_CONST) {
    if (lane == 0) *(uint4*)out = make_uint4(pl.lo, 0u, 0u, 0u);
  } else if (pl.mode == UZIP_MODE_RAW) {
    const uint8_t* blk = P.src + ((uint64_t)pl.b << P.log2Block) * W;
    for (uint32_t i = lane; i < m; i += 32u) out[i] = (uint8_t)lanes_sym<W>(load_elem_nc<W>(blk + (size_t)i * W));
    for (uint32_t i = m + lane; i < padded; i += 32u) out[i] = 0;
  } else {
    const uint8_t* esc = pl.stage + PAIRS_STAGE_SLACK + (1u << P.log2Block);
    const uint16_t* words = (const uint16_t*)(pl.stage + PAIRS_STAGE_SLACK);
    if (lane == 0) *(uint2*)out = make_uint2(pl.n, pl.nesc);
    if (lane < 16u) {
      out[8u + lane] = (uint8_t)pl.symLane;
      *(uint16_t*)(out + 24u + 2u * lane) = (uint16_t)pl.mfLane;
    }
    const uint32_t head = (uint32_t)uzip_pairs_head_bytes(pl.nesc);
    // The escapes (and the head's zero padding), 8 loads a lane in flight as in pairs_copy_words: one at a
    // time, the loop's load and store took 3% of a real-weights compression's stall samples (session 52, ncu).
    // A lane past the escapes reads the last one again (esc[0] when there are none: the stage's own byte).
    const uint32_t nb = head - UZIP_PAIRS_HEAD_BYTES, last = pl.nesc ? pl.nesc - 1u : 0u;
    for (uint32_t i0 = 0; i0 < nb; i0 += 256u) {
      uint8_t v[8];
#pragma unroll
      for (uint32_t u = 0; u < 8; u++) v[u] = __ldcg(esc + min(i0 + 32u * u + lane, last));
#pragma unroll
      for (uint32_t u = 0; u < 8; u++) {
        const uint32_t i = i0 + 32u * u + lane;
        if (i < nb) out[UZIP_PAIRS_HEAD_BYTES + i] = i < pl.nesc ? v[u] : (uint8_t)0;
      }
    }
    uint8_t* seg = out + head;
    if (lane == 0) *(uint32_t*)seg = pl.nw;
    *(uint32_t*)(seg + 4u + 4u * lane) = pl.x;
    pairs_copy_words((uint16_t*)(seg + UZIP_ANS_SEG_HEADER_BYTES), words + pl.pos, pl.nw);
    for (uint32_t o = head + UZIP_ANS_SEG_HEADER_BYTES + 2u * pl.nw + lane; o < padded; o += 32u) out[o] = 0;
  }
  if (pl.b == P.nblocks - 1) {
    const uint64_t from = UZIP_HEADER_BYTES + P.count * (W - 1);
    if (from + lane < P.dirOff) P.dst[from + lane] = 0;
  }
  write_dir_entry(P, pl.b, excl + padded, pl.mode, UZIP_MODE_EXTERNAL);
  __syncwarp();  // the stage is rewritten by the block after next
}

// 4 warps per CTA, each coding one block at a time (pairs_enc_warp_bytes<W>() of shared memory each, and two
// stages of P.stageBytes in global memory). The look-back is deferred: a warp publishes a block's size, codes
// its next block, and only then resolves the first one's offset and writes it out, by which time the blocks
// before it have published (resolving at once, the first form's warps spun there: 21.5% of its executed
// instructions, bench/results/h200-2026-12-04T1540-session31/5-pairs-ncu).
template <int W>
__global__ void __launch_bounds__(128, 4) pairs_compress_kernel(const EncParams P) {
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  uint8_t* sm = smem + (size_t)wib * pairs_enc_warp_bytes<W>();
  GpuSlot* slot = &P.slots[P.epoch & 1u];
  clean_next_slot(P.slots, P.epoch);
  uint32_t csum = 0;
  const bool gated = sm_gated(P.smLimit);
  gate_announce(P.smLimit, gated, &slot->active);
  uint8_t* stages = P.scratch + (size_t)(blockIdx.x * (blockDim.x >> 5) + wib) * 2u * P.stageBytes;
  PairsPlan pend;
  bool havePend = false;
  uint32_t parity = 0;
  while (gate_open(gated, &slot->active)) {
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(&slot->ticket, 1ull);
    t = __shfl_sync(FULL_MASK, t, 0);
    if (t >= P.nblocks) break;
    PairsPlan cur;
    pairs_code_block<W>(P, sm, (uint32_t)t, stages + parity * P.stageBytes, &csum, cur);
    if (havePend) pairs_finish_block<W>(P, pend);
    pend = cur;
    havePend = true;
    parity ^= 1u;
  }
  if (havePend) pairs_finish_block<W>(P, pend);
  enc_finish(P, slot, warp_sum_u32(csum));
}

}  // namespace uzip_gpu
