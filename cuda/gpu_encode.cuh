// The GPU compression kernel: one warp codes one block at a time (the format's 32 ANS lanes are the
// warp's 32 lanes). Per block, with nothing sent to the host in between:
//   1. read the block once: histograms of both planes, "all equal" tests, checksum terms;
//   2. choose each plane's mode exactly as FORMAT.md says (warp-parallel uzip_normalize_freqs and cost
//      estimate); ANS-code the symbol plane into shared memory (bounded by the raw size: a section that
//      does not fit is not smaller than RAW, so it is RAW); size a remainder ANS plane by a counting pass;
//   3. find the block's output offset by decoupled look-back over the blocks' payload sizes;
//   4. write the directory entry and the payload (remainder ANS is coded a second time, straight to its
//      place in global memory: it is rare, and that keeps shared memory at one plane's raw size).
// Blocks are handed out in order by a ticket counter, so a warp only ever waits on blocks that running
// warps hold: no deadlock however many warps are resident. The last warp to finish writes the header.
#pragma once

#include "gpu_types.cuh"
#include "gpu_warp.cuh"
#include "gpu_bits.cuh"

namespace uzip_gpu {

// Per-warp shared memory layout (bytes): 10.8 KB, so that 20 warps fit on an SM (the ANS chain of a warp
// is serial, so throughput comes from warps in flight). The ANS words are staged in global scratch (one
// region per resident warp, see EncParams::scratch; it stays in L2), not here. The union region holds
// the symbol sub-histograms during the first pass and the frequency tables after it.
#define ENC_CNT 0u        /* u32[256] symbol counts */
#define ENC_CNTR 1024u    /* u32[256] remainder byte counts */
#define ENC_STATES 2048u  /* u32[4][32] final states of the symbol segments */
#define ENC_NW 2560u      /* u32[16] words per segment: [0..3] symbol, [4..15] remainder */
#define ENC_SOFF 2624u    /* u32[4] where each symbol segment's words start in the word stage (u16 index) */
#define ENC_UNION 2688u   /* union: u32[256][8] symbol sub-histograms | {fsym, frem, tab} */
#define ENC_FSYM (ENC_UNION)           /* u32[256] symbol freqs */
#define ENC_FREM (ENC_UNION + 1024u)   /* u32[256] remainder freqs */
#define ENC_TAB (ENC_UNION + 2048u)    /* uint4[256] {reciprocal, 2048 - f, cum << 5 | shift, f << 20} */
#define ENC_HIST_BYTES 8192u
#define ENC_PEND (ENC_UNION + ENC_HIST_BYTES) /* BlockPlan[ENC_STAGES]: the deferred blocks (compress_kernel) */
constexpr uint32_t ENC_STAGES = 4;  // word stages per warp (see compress_kernel)

// Bytes of one global word stage: an ANS section is smaller than the raw plane, so its words (u16[block /
// 2]) fit in block bytes; 64 more for the copy's over-read. Each resident warp has ENC_STAGES of them
// (EncParams::scratch): a deferred block keeps its stage while the warp codes on.
// Two-byte types in the default layout also stage their remainder plane there (block bytes more, after
// the words), written by the histogram pass and copied out instead of reading the block a third time.
__host__ __device__ inline uint32_t enc_words_bytes(uint32_t log2Block) { return (1u << log2Block) + 64u; }
// The staged plane may be replaced by the block's remainder ANS section (one segment, coded in place, see
// compress_block; it ends inside the plane's bytes). copy_section reads up to 64 bytes past a section: here
// the next stage's, or past the last stage the 64 bytes that the scratch allocation adds.
// A SYM kernel (four-byte types, compress_kernel) stages the block's symbol plane there instead (block / 4
// bytes would do; the plane's own size keeps one layout for every stage).
__host__ __device__ inline uint32_t enc_stage_bytes(uint32_t log2Block, uint32_t width, uint32_t flags,
                                                    bool symStaged = false) {
  const bool remStaged = width == 2 && !(flags & UZIP_FLAG_SPLIT);
  return enc_words_bytes(log2Block) + (remStaged || symStaged ? (1u << log2Block) : 0u);
}

// What finishing a coded block needs (see compress_block / finish_deferred).
struct BlockPlan {
  uint32_t b, m, symMode, remMode, symSec, remSec, sym0, rem0;
  uint32_t secStart;  // deferred ANS symbol section: its byte offset in the stage (complete, in final form);
                      // REV kernels: | the section's offset of a 2-byte pad the stage lacks << 16 (or 0)
  uint32_t remStart;  // deferred ANS remainder section: its byte offset in the staged remainder area
  bool fusedRem, stagedRem, deferred;
};
// The ring of deferred plans lives in shared memory: as a local array indexed by the ring's position it
// was local memory, and its loads in finish_deferred missed L1 (ncu at bf16 256 MiB: ~2% of the kernel's
// stall samples on three LDL; bench/results/h200-2026-12-03T1215-session22/3-enc-select). In shared
// memory: bf16 split 256 MiB 0.83 -> 0.85 TB/s, 1 GiB 0.90 -> 0.91, the other dtypes +0.4-2.6%
// (bench/results/h200-2026-12-03T1400-session23/3-plans-copy-prefetch).
constexpr uint32_t ENC_WARP_BYTES = (ENC_PEND + ENC_STAGES * (uint32_t)sizeof(BlockPlan) + 15u) & ~15u;

// Builds the encoder table of freqs: the entry of every present symbol (an entry holds everything one step
// needs, so the step does no unpacking on its dependent chain); an absent symbol's entry is left as it was,
// as no step reads it. Lane l owns symbols l + 32 i (row i), and a row without a present symbol is skipped by
// the whole warp: the few exponents of a bf16 or fp32 block (K ~ 15-40, adjacent) fill two or three rows, so
// a lane computes two or three entries instead of eight (each a double division), and its 16-byte stores go
// to consecutive entries instead of 128 bytes apart (8-way bank conflicts). cum of a symbol: the rows before
// (base) plus the lanes before it in its row.
__device__ void build_enc_table(const uint32_t* freqs, uint4* tab) {
  const uint32_t lane = lane_id();
  uint32_t base = 0, fr[8];
  // Every row's frequency loaded before the first entry's store: loads placed after a table store wait for it
  // (the compiler cannot tell the arrays apart), one ~30-cycle shared load a row on the block's latency.
#pragma unroll
  for (int i = 0; i < 8; i++) fr[i] = freqs[lane + 32u * i];
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const uint32_t s = lane + 32u * i, f = fr[i];
    if (!__any_sync(FULL_MASK, f != 0u)) continue;  // warp-uniform
    const uint32_t cum = base + warp_excl_scan(f);
    if (f) {
      // uzip_ans_enc_entry: its reciprocal by a double division (a 64-bit integer one is a long emulated call).
      const uzip_ans_enc_sym e = uzip_ans_enc_entry(f, cum, UZIP_ANS_PROB_BITS);
      tab[s] = make_uint4(e.rcp, e.cmpl, e.biasShift, e.bound);
    }
    base = __shfl_sync(FULL_MASK, cum + f, 31);
  }
  __syncwarp();
}

// Moves n words of the stage from `from` down to `to` (to <= from): chunks of 256 words, each read whole
// (8 loads in flight per lane) before any of it is written; a chunk's stores land below where the next
// chunk's reads begin, so no word is overwritten before it is read.
__device__ __forceinline__ void move_words_down(uint16_t* s, int32_t from, int32_t to, int32_t n) {
  const int32_t lane = (int32_t)lane_id();
  for (int32_t i0 = 0; i0 < n; i0 += 256) {
    uint16_t w[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int32_t i = i0 + lane + 32 * k;
      w[k] = i < n ? s[from + i] : (uint16_t)0;
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int32_t i = i0 + lane + 32 * k;
      if (i < n) s[to + i] = w[k];
    }
    __syncwarp();
  }
}

// The smallest and largest present symbol of a frequency table (lane l owns symbols 8l .. 8l+7, at least
// one present), in every lane: a LEAN stream's table head (FORMAT.md "Lean sections").
struct TableSpan {
  uint32_t lo, hi;
};
__device__ __forceinline__ TableSpan table_span(uint32_t bits) {
  const uint32_t any = __ballot_sync(FULL_MASK, bits != 0);
  const uint32_t loLane = (uint32_t)__ffs(any) - 1u, hiLane = 31u - (uint32_t)__clz(any);
  const uint32_t loBits = __shfl_sync(FULL_MASK, bits, loLane), hiBits = __shfl_sync(FULL_MASK, bits, hiLane);
  return TableSpan{8u * loLane + (uint32_t)__ffs(loBits) - 1u, 8u * hiLane + 31u - (uint32_t)__clz(hiBits)};
}
__device__ __forceinline__ uint32_t present_bits(const uint32_t* freqs) {
  uint32_t bits = 0;
#pragma unroll
  for (int i = 0; i < 8; i++)
    if (freqs[8 * lane_id() + i]) bits |= 1u << i;
  return bits;
}
// The bytes write_ans_table will take for freqs, whose symbols present are k (a LEAN stream's table when
// lean; the modes are still weighed with uzip_ans_table_bytes, FORMAT.md "Lean sections").
__device__ __forceinline__ uint32_t table_bytes_dev(const uint32_t* freqs, bool lean, uint32_t k) {
  if (!lean) return uzip_ans_table_bytes(k);
  const TableSpan t = table_span(present_bits(freqs));
  return uzip_lean_table_bytes(k, t.lo, t.hi);
}

// Writes the ANS table (u16 K, u16 0, bitmap, freqs, pad to 4; lean: FORMAT.md "Lean sections", u8 lo, u8 hi,
// u16 K, then the range form or the bitmap form) at p (2-aligned); returns its size.
template <bool LEAN = false>
__device__ uint32_t write_ans_table(uint8_t* p, const uint32_t* freqs) {
  constexpr bool lean = LEAN;
  const uint32_t lane = lane_id();
  uint32_t f[8], bits = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    f[i] = freqs[8 * lane + i];
    if (f[i]) bits |= 1u << i;
  }
  uint32_t rank = warp_excl_scan(__popc(bits));
  uint32_t k = warp_sum_u32(__popc(bits));
  const TableSpan t = lean ? table_span(bits) : TableSpan{0u, 0u};
  if (lean && uzip_lean_range_form(k, t.lo, t.hi)) {
    const uint32_t span = t.hi - t.lo + 1u;
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const uint32_t s = 8u * lane + i;
      if (s >= t.lo && s <= t.hi) *(uint16_t*)(p + 4 + 2 * (s - t.lo)) = (uint16_t)f[i];
    }
    if (lane == 0) {  // 16-bit stores: p may be only 2-aligned
      ((uint16_t*)p)[0] = (uint16_t)(t.lo | t.hi << 8);
      ((uint16_t*)p)[1] = (uint16_t)k;
      if (span & 1u) *(uint16_t*)(p + 4 + 2 * span) = 0;
    }
    return uzip_lean_table_bytes(k, t.lo, t.hi);
  }
  p[4 + lane] = (uint8_t)bits;
#pragma unroll
  for (int i = 0; i < 8; i++)
    if (f[i]) *(uint16_t*)(p + 36 + 2 * rank++) = (uint16_t)f[i];
  if (lane == 0) {  // 16-bit stores: p may be only 2-aligned (a section built in the stage)
    ((uint16_t*)p)[0] = lean ? (uint16_t)(t.lo | t.hi << 8) : (uint16_t)k;
    ((uint16_t*)p)[1] = lean ? (uint16_t)k : 0;
    if (k & 1u) *(uint16_t*)(p + 36 + 2 * k) = 0;
  }
  return uzip_ans_table_bytes(k);
}

// The byte of a plane: symbol of element k, or remainder byte k (element k / rw, byte k % rw).
template <int W, bool REM>
__device__ __forceinline__ uint32_t plane_byte(const uint8_t* blk, uint32_t k) {
  if (!REM) {
    uint32_t v = W == 1 ? (uint32_t)__ldg(blk + k)
               : W == 2 ? (uint32_t)__ldg((const uint16_t*)blk + k) : (uint32_t)__ldg((const uint32_t*)blk + k);
    return uzip_symbol_of(v, W);
  }
  constexpr uint32_t rw = W > 1 ? W - 1 : 1;
  uint32_t e = rw == 1 ? k : k / rw, j = k - e * rw;
  uint32_t v = W == 2 ? (uint32_t)__ldg((const uint16_t*)blk + e) : (uint32_t)__ldg((const uint32_t*)blk + e);
  return (uzip_remainder_of(v, W) >> (8 * j)) & 0xFFu;
}

// Encodes one segment (len symbols of the plane starting at plane index base) with the 32 lanes. Words
// are placed downward from *pos: out[*pos - c + rank] (out may be null: count only). Returns false when
// *pos would go under lo (the plane will be RAW). *xout gets this lane's final state.
// Symbols are read again from the input block (the first pass just read it: L2 hits), not staged in
// shared memory, which leaves room for more warps per SM.
//
// Speed: steps go in groups of U. The table entries of the next group are loaded while the current group
// runs (all loads come before the group's word stores, so no store can hold them back), a step is
// branch-free (state -> compare -> select -> umulhi -> funnel shift -> imad), and the words of a
// group are stored after it, once its positions are known. The state chain is the only serial part.
// The state after coding a symbol with entry e = {rcp, cmpl, bias << 5 | shift, bound} (uzip_ans_enc_entry)
// into the renormalized state xs (< f << 20 <= 2^31): q = umulhi(xs, rcp) >> shift, exact, then
// xs + bias + q * cmpl. No correction step (format version 1's states reached 2^32, where a 32-bit
// reciprocal's quotient could be one short: a multiply, a compare and a select more on the state's chain).
__device__ __forceinline__ uint32_t enc_next(uint32_t xs, const uint4& e) {
  const uint32_t q = __funnelshift_r(__umulhi(xs, e.x), 0u, e.z);  // shift = e.z & 31
  return xs + (e.z >> 5) + q * e.y;
}

template <int W, bool REM>
__device__ __forceinline__ uint32_t enc_symbol(const uint8_t* blk, uint32_t base, uint32_t len, int32_t t,
                                               uint32_t lane, bool& valid) {
  const uint32_t k = 32u * (uint32_t)t + lane;
  valid = t >= 0 && k < len;
  return valid ? plane_byte<W, REM>(blk, base + k) : 0u;
}

template <int W, bool REM, int U>
__device__ __forceinline__ bool encode_segment(const uint8_t* blk, uint32_t base, uint32_t len, const uint4* tab,
                                               uint16_t* out, int32_t* pos, int32_t lo, uint32_t* xout,
                                               uint32_t x0 = UZIP_ANS_L) {
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const int32_t T = (int32_t)((len + 31u) / 32u);
  uint32_t x = x0;
  int32_t p = *pos;
  // Group g = steps T-1-gU .. T-gU-U. Symbols are loaded two groups ahead (global, usually L2), table
  // entries one group ahead (shared), so neither latency sits on the state chain.
  uint4 cur[U];
  uint32_t sy1[U], curValid = 0, valid1 = 0;
#pragma unroll
  for (int u = 0; u < U; u++) {
    bool v;
    uint32_t sy = enc_symbol<W, REM>(blk, base, len, T - 1 - u, lane, v);
    curValid |= (uint32_t)v << u;
    sy1[u] = enc_symbol<W, REM>(blk, base, len, T - 1 - U - u, lane, v);
    valid1 |= (uint32_t)v << u;
    cur[u] = tab[sy];
  }
  for (int32_t t0 = T - 1; t0 >= 0; t0 -= U) {
    uint32_t sy2[U], valid2 = 0;
#pragma unroll
    for (int u = 0; u < U; u++) {
      bool v;
      sy2[u] = enc_symbol<W, REM>(blk, base, len, t0 - 2 * U - u, lane, v);
      valid2 |= (uint32_t)v << u;
    }
    uint4 nxt[U];
#pragma unroll
    for (int u = 0; u < U; u++) nxt[u] = tab[sy1[u]];
    uint32_t mask[U], word[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      const uint4 e = cur[u];  // {rcp, cmpl, bias << 5 | shift, bound}
      const bool valid = (curValid >> u) & 1u;
      const bool emit = valid && x >= e.w;
      word[u] = x & 0xFFFFu;
      const uint32_t xs = emit ? x >> 16 : x;
      x = valid ? enc_next(xs, e) : x;
      mask[u] = __ballot_sync(FULL_MASK, emit);
    }
    int32_t c = 0;
#pragma unroll
    for (int u = 0; u < U; u++) c += __popc(mask[u]);
    if (p - c < lo) return false;  // p only goes down: checking the group's end is checking every step
#pragma unroll
    for (int u = 0; u < U; u++) {
      p -= __popc(mask[u]);
      if (out && ((mask[u] >> lane) & 1u)) out[p + __popc(mask[u] & lt)] = (uint16_t)word[u];
    }
#pragma unroll
    for (int u = 0; u < U; u++) {
      cur[u] = nxt[u];
      sy1[u] = sy2[u];
    }
    curValid = valid1;
    valid1 = valid2;
  }
  *pos = p;
  *xout = x;
  return true;
}

// Shared address of the table entry (uint4) of an element's symbol, straight from the element's bits: the
// exponent field masked and moved down to symbol * 16 onto the table's address in one instruction (add_shr).
template <int W, bool REM = false>
__device__ __forceinline__ uint32_t enc_tab_addr(uint32_t tabS, uint32_t v) {
  if (REM) return tabS + (uzip_remainder_of(v, W) << 4);  // two-byte types: one remainder byte per element
  if (W == 1) return tabS + ((v & 0xFFu) << 4);
  if (W == 2) return add_shr<3>(tabS, v & 0x7F80u);  // symbol = (v >> 7) & 0xFF
  return add_shr<19>(tabS, v & 0x7F800000u);         // symbol = (v >> 23) & 0xFF
}
// A table entry from its 32-bit shared address (enc_tab_addr), so that the address is the one add_shr
// formed (through a generic pointer ptxas added the table's base again).
__device__ __forceinline__ uint4 lds_u4(uint32_t a) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
  return v;
}

// One step of encode_segment_full's chain in PTX (e = {rcp, cmpl, bias << 5 | shift, bound}): the lane
// sheds a word (x >= bound: *word = x, x >>= 16), *mask gets the warp's ballot of those lanes, then the
// state becomes xs + bias + (umulhi(xs, rcp) >> shift) * cmpl (enc_next). The shed is a select, not a
// predicated shift: in the SASS an instruction guarded by a predicate waits 13 cycles after the ISETP that
// sets it, a SEL reading it as an operand 4, and the state's chain is what a warp waits on. The bias add
// (a shift-add, off the chain) runs beside the multiply; the chain is compare, select, multiply-high,
// funnel shift, multiply-add.
__device__ __forceinline__ void enc_step(uint32_t& x, const uint4& e, uint32_t& mask, uint32_t& word) {
  asm volatile(
      "{\n\t.reg .pred s;\n\t.reg .b32 q, c, h;\n\t"
      "setp.ge.u32 s, %0, %6;\n\t"
      "vote.sync.ballot.b32 %1, s, -1;\n\t"
      "mov.b32 %2, %0;\n\t"
      "shr.u32 h, %0, 16;\n\t"
      "selp.b32 %0, h, %0, s;\n\t"
      "mul.hi.u32 q, %0, %3;\n\t"
      "shf.r.wrap.b32 q, q, 0, %5;\n\t"
      "shr.u32 c, %5, 5;\n\t"
      "add.u32 c, %0, c;\n\t"
      "mad.lo.u32 %0, q, %4, c;\n\t"
      "}"
      : "+r"(x), "=r"(mask), "=r"(word)
      : "r"(e.x), "r"(e.y), "r"(e.z), "r"(e.w));
}

// A 16-bit store to global memory where pred holds, as one predicated st: the address is formed whatever
// pred is, so that only the store waits on the predicate (C++'s `if (pred) *p = v` had ptxas guard the
// rank's popcount and the address as well, each guarded instruction 13 cycles behind its test).
__device__ __forceinline__ void st_u16_if(uint16_t* p, uint32_t v, uint32_t pred) {
  asm volatile(
      "{\n\t.reg .pred w;\n\t.reg .u64 a;\n\tcvta.to.global.u64 a, %0;\n\tsetp.ne.u32 w, %2, 0;\n\t"
      "@w st.global.u16 [a], %1;\n\t}"
      :: "l"(p), "r"(v), "r"(pred) : "memory");
}

// One group of U steps of encode_segment_full (steps t0 .. t0 - U + 1): the table entries of the elements
// in buf, then buf's registers take the elements of the group two further on (t0 - 2U), then the chain
// and the group's word stores. Returns false when the words would go under lo.
// COH: the elements are a plane this kernel wrote (the staged symbols of a SYM kernel): plain loads, which
// __syncwarp orders after the stores, instead of the read-only path, which could return an earlier block's.
template <int W, int U, bool REM, bool COH = false>
__device__ __forceinline__ bool enc_group_full(uint32_t (&buf)[U], int32_t t0, const uint8_t* lp, uint32_t tabS,
                                               uint32_t& x, int32_t& p, int32_t lo, uint16_t* out, uint32_t lt) {
  uint4 e[U];
#pragma unroll
  for (int u = 0; u < U; u++) e[u] = lds_u4(enc_tab_addr<W, REM>(tabS, buf[u]));
  if (t0 >= 2 * U) {
    const uint8_t* q = lp + (size_t)(32u * W) * (uint32_t)(t0 - 2 * U);
#pragma unroll
    for (int u = 0; u < U; u++)
      buf[u] = COH ? load_elem<W>(q - (size_t)(32u * W) * u) : load_elem_nc<W>(q - (size_t)(32u * W) * u);
  }
  uint32_t mask[U], word[U];
#pragma unroll
  for (int u = 0; u < U; u++) enc_step(x, e[u], mask[u], word[u]);
  int32_t c = 0;
#pragma unroll
  for (int u = 0; u < U; u++) c += __popc(mask[u]);
  if (p - c < lo) return false;
#pragma unroll
  for (int u = 0; u < U; u++) {
    p -= __popc(mask[u]);
    st_u16_if(out + (p + __popc(mask[u] & lt)), word[u], mask[u] & (lt + 1u));  // lt + 1: this lane's bit
  }
  return true;
}

// encode_segment for the common case: the symbol plane, every step with all 32 lanes (len a multiple of
// 32 * U). No per-step validity, one element load per step at a constant offset from one pointer, table
// entries looked up at the start of each group. Elements are loaded two groups ahead (an L2 load takes
// longer than one group of steps) into two register buffers that alternate by group: a rotation of three
// buffers instead waited, at the end of every group, for the loads issued at its start (ncu at 256 MiB:
// 4.7% of all compress stall samples on one such copy; this form measured +1-2% bf16, +3-6% fp32 split
// layout, bench/results/h200-2026-11-30T2050-session5/2-default-log2). Same bytes as encode_segment.
// REM (two-byte types): the remainder plane instead, one byte per element (the table is the remainder's).
// COH: see enc_group_full.
template <int W, int U, bool REM = false, bool COH = false>
__device__ __forceinline__ bool encode_segment_full(const uint8_t* blk, uint32_t base, uint32_t T, const uint4* tab,
                                                    uint16_t* out, int32_t* pos, int32_t lo, uint32_t* xout,
                                                    uint32_t x0 = UZIP_ANS_L) {
  static_assert(!REM || W == 2, "the remainder fast path is for one remainder byte per element");
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const uint8_t* lp = blk + (size_t)(base + lane) * W;  // this lane's element of step 0
  const uint32_t tb = (uint32_t)__cvta_generic_to_shared(tab);
  uint32_t x = x0;
  int32_t p = *pos;
  uint32_t ra[U], rb[U];  // the elements of the groups at t0 and t0 - U
#pragma unroll
  for (int u = 0; u < U; u++) {
    if constexpr (COH) {
      ra[u] = load_elem<W>(lp + (size_t)(32u * W) * (T - 1u - u));
      rb[u] = T >= 2u * U ? load_elem<W>(lp + (size_t)(32u * W) * (T - 1u - U - u)) : 0u;
    } else {
      ra[u] = load_elem_nc<W>(lp + (size_t)(32u * W) * (T - 1u - u));
      rb[u] = T >= 2u * U ? load_elem_nc<W>(lp + (size_t)(32u * W) * (T - 1u - U - u)) : 0u;
    }
  }
  for (int32_t t0 = (int32_t)T - 1; t0 >= 0; t0 -= 2 * U) {
    if (!enc_group_full<W, U, REM, COH>(ra, t0, lp, tb, x, p, lo, out, lt)) return false;
    if (t0 < U) break;  // T / U is odd: this was the last group
    if (!enc_group_full<W, U, REM, COH>(rb, t0 - U, lp, tb, x, p, lo, out, lt)) return false;
  }
  *pos = p;
  *xout = x;
  return true;
}

// Turns a lone ANS segment, coded downward into words[pos .. cap) of the stage (nw = cap - pos words, state
// = this lane's final state), into its section in final form in place: table (tb bytes, from freqs) |
// word count | the 32 states | words | a padding word when nw is odd (at words[cap]). The table and
// header go right below the words, which the coder left room for. Returns the section's byte offset from
// words: only 2-aligned, so every store here is 16-bit.
template <bool LEAN = false>
__device__ __forceinline__ uint32_t finish_lone_section(uint16_t* words, uint32_t pos, int32_t cap, uint32_t nw,
                                                        uint32_t tb, const uint32_t* freqs, uint32_t state) {
  const uint32_t lane = lane_id();
  const uint32_t st0 = 2u * pos - UZIP_ANS_SEG_HEADER_BYTES - tb;
  uint8_t* sb = (uint8_t*)words;
  write_ans_table<LEAN>(sb + st0, freqs);
  uint16_t* h16 = (uint16_t*)(sb + st0 + tb);
  if (lane == 0) { h16[0] = (uint16_t)nw; h16[1] = (uint16_t)(nw >> 16); }
  h16[2 + 2 * lane] = (uint16_t)state;
  h16[3 + 2 * lane] = (uint16_t)(state >> 16);
  if ((nw & 1u) && lane == 0) words[cap] = 0;
  return st0;
}

// The two segments that compress_block coded last first, each right below the next one's header, into
// their section in place: the table at byte secStart of the stage (right below segment 0's header), the
// headers (16-bit stores: the section is only 2-aligned), the last segment's pad word. Returns the byte
// offset in the section of the first segment's pad, which the stage lacks (0 when its word count is even).
// Out of line: inlined, it changed the schedule of the coding loop (static stalls 1210 -> 1300 per 16
// steps).
template <bool LEAN = false>
__device__ __noinline__ uint32_t finish_two_segments(uint16_t* stage, uint32_t secStart, int32_t cap, uint32_t tb,
                                                     const uint32_t* fsym, const uint8_t* sm) {
  const uint32_t lane = lane_id();
  const uint32_t* states = (const uint32_t*)(sm + ENC_STATES);
  const uint32_t* nws = (const uint32_t*)(sm + ENC_NW);
  const uint32_t* soff = (const uint32_t*)(sm + ENC_SOFF);
  write_ans_table<LEAN>((uint8_t*)stage + secStart, fsym);
  for (uint32_t sg = 0; sg < 2u; sg++) {
    uint16_t* h16 = stage + soff[sg] - UZIP_ANS_SEG_HEADER_BYTES / 2u;
    const uint32_t nw = nws[sg], st = states[sg * 32 + lane];
    if (lane == 0) { h16[0] = (uint16_t)nw; h16[1] = (uint16_t)(nw >> 16); }
    h16[2 + 2 * lane] = (uint16_t)st;
    h16[3 + 2 * lane] = (uint16_t)(st >> 16);
  }
  if ((nws[1] & 1u) && lane == 0) stage[cap] = 0;  // the last segment's pad, in the stage's slack
  __syncwarp();
  return (nws[0] & 1u) ? tb + UZIP_ANS_SEG_HEADER_BYTES + 2u * nws[0] : 0u;
}

// Decoupled look-back, in two halves so that a warp can publish a block's aggregate, code its next block,
// and only then resolve the first one's prefix (by then its predecessors have published: no waiting).
// lb_publish: block b's aggregate (block 0: its inclusive prefix, which is the aggregate).
__device__ __forceinline__ void lb_publish(unsigned long long* lb, uint32_t b, uint64_t agg, uint32_t epoch) {
  const uint64_t tag = (uint64_t)(epoch & ((1u << UZIP_LB_EPOCH_BITS) - 1u)) << 42;
  if (lane_id() == 0) st_volatile_u64(&lb[b], tag | ((b == 0 ? UZIP_LB_FLAG_INC : UZIP_LB_FLAG_AGG) << 40) | agg);
}
// lb_resolve: block b's exclusive prefix (after lb_publish); publishes its inclusive prefix.
__device__ uint64_t lb_resolve(unsigned long long* lb, uint32_t b, uint64_t agg, uint32_t epoch) {
  const uint32_t lane = lane_id();
  const uint64_t tag = (uint64_t)(epoch & ((1u << UZIP_LB_EPOCH_BITS) - 1u)) << 42;
  if (b == 0) return 0;
  uint64_t excl = 0;
  int64_t j = (int64_t)b - 1;
  uint32_t sleep = 64;  // ns, doubling to 2 us: a waiting warp must not take issue slots from working ones
  while (true) {
    int64_t idx = j - (int64_t)lane;
    uint64_t val = 0, flag = UZIP_LB_FLAG_INC;
    while (true) {
      if (idx >= 0) {
        uint64_t w = ld_volatile_u64(&lb[idx]);
        flag = (w & ~((1ull << 42) - 1)) == tag ? (w >> 40) & 3u : 0u;
        val = w & UZIP_DIR_END_MASK;
      }
      if (__all_sync(FULL_MASK, flag != 0)) break;
      __nanosleep(sleep);
      sleep = sleep < 2048u ? 2u * sleep : 2048u;
    }
    uint32_t inc = __ballot_sync(FULL_MASK, flag == UZIP_LB_FLAG_INC);
    if (inc) {
      uint32_t first = __ffs(inc) - 1;
      excl += warp_sum_u64(lane <= first ? val : 0);
      break;
    }
    excl += warp_sum_u64(val);
    j -= 32;
  }
  if (lane == 0) st_volatile_u64(&lb[b], tag | (UZIP_LB_FLAG_INC << 40) | (excl + agg));
  return excl;
}

// Stores the remainders of a whole group of 16 elements at out (16-aligned): 16 bytes for two-byte types,
// 48 for fp32 (3 bytes each, packed). `limit` bounds the fp32 stores (section end).
template <int W>
__device__ __forceinline__ void store_rem_group(const uint32_t v[16], uint8_t* out, uint32_t off, uint32_t limit) {
  if (W == 2) {
    uint32_t w[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
      w[i] = uzip_remainder_of(v[4 * i], 2) | (uzip_remainder_of(v[4 * i + 1], 2) << 8) |
             (uzip_remainder_of(v[4 * i + 2], 2) << 16) | (uzip_remainder_of(v[4 * i + 3], 2) << 24);
    *(uint4*)(out + off) = make_uint4(w[0], w[1], w[2], w[3]);
  } else if (W == 4) {
    uint32_t r[16], w[12];
#pragma unroll
    for (int i = 0; i < 16; i++) r[i] = uzip_remainder_of(v[i], 4);
#pragma unroll
    for (int q = 0; q < 4; q++) {  // 4 elements -> 3 words
      w[3 * q] = r[4 * q] | (r[4 * q + 1] << 24);
      w[3 * q + 1] = (r[4 * q + 1] >> 8) | (r[4 * q + 2] << 16);
      w[3 * q + 2] = (r[4 * q + 2] >> 16) | (r[4 * q + 3] << 8);
    }
#pragma unroll
    for (int q = 0; q < 3; q++) {
      uint32_t o = off + 16u * q;
      if (o < limit) *(uint4*)(out + o) = make_uint4(w[4 * q], w[4 * q + 1], w[4 * q + 2], w[4 * q + 3]);
    }
  }
}

// Where the split plane holds group g (16 elements) of a seeded stream's block of m elements: a byte offset
// in the block's part of the plane (uzip_split_plane_block_offset), or ~0u for a group of seeded elements (in
// the lanes' states or the seed section instead). No group straddles: a seeded segment keeps a multiple of
// 16 elements.
template <int W>
__device__ __forceinline__ uint32_t seeded_group_off(uint32_t g, uint32_t m) {
  uint32_t off;
  return uzip_seeded_place(16u * g, m, W, &off) ? off : 0xFFFFFFFFu;
}
// A seeded segment's first state for this lane (base, len: its first element and length in the block; any
// other segment starts at 2^15): 2^k + the remainders of the lane's elements of the last E steps.
template <int W>
__device__ __forceinline__ uint32_t seeded_x0(const uint8_t* blk, uint32_t base, uint32_t len, bool seeded) {
  using S = Seeds<W>;
  if (!seeded || !S::seg_seeded(len)) return UZIP_ANS_L;
  const uint32_t first = base + len - 32u * S::E + lane_id();
  uint32_t seed = 0;
#pragma unroll
  for (uint32_t e = 0; e < S::E; e++)
    seed |= uzip_remainder_of(load_elem<W>(blk + (size_t)(first + 32u * e) * W), W) << (8u * S::RW * e);
  return (1u << S::BITS) + seed;
}
// A seeded stream's block without the fused plane writes (unaligned input, or m not a multiple of 16): its
// part of the split plane element by element, and after the last block the plane's padding.
template <int W>
__device__ void write_seeded_plane(const uint8_t* blk, uint32_t m, uint8_t* out, uint32_t padTo) {
  using S = Seeds<W>;
  uint32_t end = 0;
  for (uint32_t start = 0; start < m; start += UZIP_ANS_SEG_SYMS) {
    const uint32_t len = min(m - start, UZIP_ANS_SEG_SYMS);
    end += (len - (S::seg_seeded(len) ? 32u * S::E : 0u)) * S::RW;
  }
  for (uint32_t k = lane_id(); k < m; k += 32u) {
    uint32_t off;
    if (!uzip_seeded_place(k, m, W, &off)) continue;  // a seeded element: its remainder rides in a state
    const uint32_t r = uzip_remainder_of(load_elem<W>(blk + (size_t)k * W), W);
#pragma unroll
    for (uint32_t j = 0; j < S::RW; j++) out[off + j] = (uint8_t)(r >> (8u * j));
  }
  for (uint32_t o = end + lane_id(); o < padTo; o += 32u) out[o] = 0;
}
// The seed section of a seeded stream's block whose symbol plane is RAW or CONST: the seeded elements'
// remainder bytes, segment after segment, as the plane would hold them (bytes: a multiple of 16).
template <int W>
__device__ void write_seed_section(const uint8_t* blk, uint32_t m, uint8_t* out, uint32_t bytes) {
  for (uint32_t i = lane_id(); i < bytes; i += 32u) {
    uint32_t k, j;
    uzip_seed_byte_elem(i, m, W, &k, &j);
    out[i] = (uint8_t)(uzip_remainder_of(load_elem<W>(blk + (size_t)k * W), W) >> (8u * j));
  }
}

// Copies `bytes` (a multiple of 16) between 16-aligned places, 8 loads of 16 bytes per lane in flight (the
// source is the warp's stage, recently written: L2 latency, so bytes in flight are what sets the speed).
// The waits of this copy are 6% of the compress kernel's stall samples in the default layout
// (bench/results/h200-2026-12-02T0200-session13/2-encstep), but 16 in flight (and 8 chunks in
// copy_section) compressed 1-4% slower at 1 GiB (4-copies).
__device__ __forceinline__ void copy16(const uint8_t* src, uint8_t* out, uint32_t bytes) {
  constexpr uint32_t K = 8;
  const uint4* s = (const uint4*)src;
  uint4* o = (uint4*)out;
  const uint32_t n = bytes / 16u;
  for (uint32_t i0 = lane_id(); i0 < n; i0 += 32u * K) {
    uint4 v[K];
#pragma unroll
    for (int j = 0; j < (int)K; j++) v[j] = i0 + 32u * j < n ? s[i0 + 32u * j] : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int j = 0; j < (int)K; j++)
      if (i0 + 32u * j < n) o[i0 + 32u * j] = v[j];
  }
}

// Writes the plane as RAW sections from the input: symbols (REM false) or remainders, groups of 16
// elements per lane; out is 16-aligned, `limit` = padded section bytes (stores past it are skipped).
template <int W, bool REM>
__device__ void write_raw_plane(const uint8_t* blk, uint32_t m, bool aligned, uint8_t* out, uint32_t limit) {
  const uint32_t ng = (m + 15u) / 16u;
  constexpr int D = W == 4 ? 2 : 4;  // groups in flight per lane
  for (uint32_t g0 = lane_id(); g0 < ng; g0 += 32u * D) {
   uint4 qv[D][W];
#pragma unroll
   for (int d = 0; d < D; d++) load_group_raw<W>(blk, g0 + 32u * d, m, aligned, qv[d]);
#pragma unroll
   for (int d = 0; d < D; d++) {
    const uint32_t g = g0 + 32u * d;
    if (g >= ng) break;
    uint32_t v[16];
    unpack_group<W>(blk, g, m, aligned, qv[d], v);
    if (!REM) {
      uint32_t w[4];
#pragma unroll
      for (int i = 0; i < 4; i++)
        w[i] = uzip_symbol_of(v[4 * i], W) | (uzip_symbol_of(v[4 * i + 1], W) << 8) |
               (uzip_symbol_of(v[4 * i + 2], W) << 16) | (uzip_symbol_of(v[4 * i + 3], W) << 24);
      *(uint4*)(out + 16u * g) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      store_rem_group<W>(v, out, 16u * (W - 1) * g, limit);
    }
   }
  }
}

// Zero bytes [from, to) of a section (both multiples of 4).
__device__ __forceinline__ void zero_words(uint8_t* p, uint32_t from, uint32_t to) {
  for (uint32_t o = from + 4u * lane_id(); o < to; o += 128u) *(uint32_t*)(p + o) = 0;
}

// Block b's directory entry (payload end `end`); the last block also zero-pads the directory and records
// the stream's total for the header.
__device__ __forceinline__ void write_dir_entry(const EncParams& P, uint32_t b, uint64_t end, uint32_t symMode,
                                                uint32_t remMode) {
  if (lane_id() != 0) return;
  uint8_t* dir = P.dst + P.dirOff;
  *(unsigned long long*)(dir + 8ull * b) = uzip_dir_entry(end, symMode, remMode);
  if (b == P.nblocks - 1) {
    if (P.nblocks & 1u) *(unsigned long long*)(dir + 8ull * P.nblocks) = 0;
    P.slots[P.epoch & 1u].total = P.payloadOff + end;
    fence_acq_rel_gpu();  // before this warp's end_count_add: the last warp reads the total (enc_finish)
  }
}

// The sections written from the input or the stage, with no coding state: a CONST or RAW symbol plane at
// out, and a CONST, RAW or EXTERNAL remainder plane (RAW at ro; EXTERNAL at its split-layout place unless
// the histogram pass already wrote it). ANS sections are the callers'.
template <int W>
__device__ __forceinline__ void write_plain_sym(const EncParams& P, const BlockPlan& pl, uint8_t* out, uint32_t symPad) {
  const uint8_t* blk = P.src + ((uint64_t)pl.b << P.log2Block) * W;
  if (pl.symMode == UZIP_MODE_CONST) {
    if (lane_id() == 0) *(uint4*)out = make_uint4(pl.sym0, 0, 0, 0);
  } else {
    write_raw_plane<W, false>(blk, pl.m, P.srcAligned16 != 0, out, symPad);
  }
}
template <int W, bool LEAN = false>
__device__ __forceinline__ void write_plain_rem(const EncParams& P, const BlockPlan& pl, const uint8_t* stageB,
                                                uint8_t* ro, uint32_t remPad) {
  constexpr uint32_t rw = W > 1 ? W - 1 : 0;
  const uint64_t start = (uint64_t)pl.b << P.log2Block;
  const uint8_t* blk = P.src + start * W;
  const bool aligned = P.srcAligned16 != 0;
  if (pl.remMode == UZIP_MODE_CONST) {
    if (lane_id() == 0) *(uint4*)ro = make_uint4(pl.rem0, 0, 0, 0);
  } else if (pl.remMode == UZIP_MODE_RAW) {
    if (pl.stagedRem) copy16(stageB + enc_words_bytes(P.log2Block), ro, remPad);
    else write_raw_plane<W, true>(blk, pl.m, aligned, ro, remPad);
  } else if (LEAN && pl.remMode == UZIP_MODE_EXTERNAL && !pl.fusedRem && uzip_seeded_stream(P.dtype, P.flags)) {
    const uint64_t off = uzip_split_plane_block_offset(pl.b, P.dtype, P.flags, P.log2Block);
    const uint64_t end = pl.b + 1u == P.nblocks ? uzip_pad16(uzip_split_plane_bytes(P.count, P.dtype, P.flags,
                                                                                    P.log2Block)) - off
                                                : 0u;
    write_seeded_plane<W>(blk, pl.m, P.dst + UZIP_HEADER_BYTES + off, (uint32_t)end);
  } else if (pl.remMode == UZIP_MODE_EXTERNAL && !pl.fusedRem) {
    write_raw_plane<W, true>(blk, pl.m, aligned, P.dst + UZIP_HEADER_BYTES + start * rw,
                             (uint32_t)uzip_pad16((uint64_t)pl.m * rw));
  }
}

// The seed section's bytes of a planned block: those of a seeded stream's block whose symbol plane is not
// ANS (FORMAT.md "Lean sections"), else 0.
__device__ __forceinline__ uint32_t plan_seed_bytes(const EncParams& P, const BlockPlan& pl) {
  return pl.symMode == UZIP_MODE_ANS ? 0u : uzip_block_seed_bytes(pl.m, P.dtype, P.flags);
}

// The remainder plane's sample (UZIP_REM_SAMPLE_ELEMS elements) in groups of 16 elements.
constexpr uint32_t REM_SAMPLE_GROUPS = UZIP_REM_SAMPLE_ELEMS / 16u;
// Whether the first pass counts every remainder byte: exactly for the widths whose remainder plane has no
// sample rule (uzip_rem_sampled: none now; fp8 has no remainder plane). The sampled widths count their
// sample after the first pass, and the rest only when the sample does not settle the plane RAW. fp32,
// same call (bench/results/h200-2026-11-30T2240-session6/3-5): 0.795 -> 0.876 TB/s at 1 GiB.
template <int W>
constexpr bool REM_COUNT_ALL = W != 4 && W != 2;

// Adds the remainder byte counts of groups [g0, g1) of the block to `counts` (a second read of those
// groups, from L2 after the first pass): fp32's sample, and the rest of its plane when the sample did not
// settle it (rare: low-entropy mantissas of some real weights).
template <int W>
__device__ void count_rem_groups(const uint8_t* blk, uint32_t m, bool aligned, uint32_t g0, uint32_t g1,
                                 uint32_t* counts) {
  for (uint32_t g = g0 + lane_id(); g < g1; g += 32u) {
    uint4 q[W];
    load_group_raw<W>(blk, g, m, aligned, q);
    uint32_t v[16];
    unpack_group<W>(blk, g, m, aligned, q, v);
    const uint32_t valid = m - 16u * g;
#pragma unroll
    for (int i = 0; i < 16; i++)
      if ((uint32_t)i < valid) {
        const uint32_t r = uzip_remainder_of(v[i], W);
#pragma unroll
        for (int j = 0; j < W - 1; j++) atomicAdd(&counts[(r >> (8 * j)) & 0xFFu], 1u);
      }
  }
  __syncwarp();
}

// Warp pairs (compress_kernel<..., DUO = true>, for calls of few blocks): the two warps of a pair code one
// block together. A lone warp's block is bound by its own issue (a scheduler issues one of its integer
// instructions every other cycle): two chains on one warp measured no faster even for lone warps
// (bench/results/h200-2026-12-02T1850-session18/1-pairs), so the pair splits the work across two
// schedulers instead. Both warps run half the histogram pass; then the coder runs the ANS chain and hands
// each group's words (every lane's low 16 state bits, whether it shed a word or not) and ballots to the
// helper through two slots in shared memory, and the helper ranks and stores the words (the ~8
// instructions a step the coder's own stores took). Two named barriers order the pair, each a rendezvous
// of both warps (bar.sync, which compute-sanitizer's racecheck follows): ctl for the block's ticket, the
// histogram halves and each segment's start and end; ring after each group the coder wrote. The helper
// reaches the ring barrier of group g only after it has stored group g - 1, so the coder, which writes
// group g + 1 after that barrier, is never more than one slot ahead: two slots suffice. The helper has the
// lighter work and usually waits there first.
constexpr uint32_t DUO_R = 2;
constexpr uint32_t DUO_CMD_CODE = 1, DUO_CMD_DONE = 2;
struct DuoCtl {  // at the start of the helper's shared region
  unsigned long long ticket, stage;  // the block, and the coder's stage for it (uint16_t*)
  uint32_t cmd, T, ok, constR;
  int32_t pos, lo;
};
constexpr uint32_t DUO_CTL_BYTES = 64;
static_assert(sizeof(DuoCtl) <= DUO_CTL_BYTES, "control words");
struct Duo {
  DuoCtl* c = nullptr;
  uint8_t* ring = nullptr;  // DUO_R slots of duo_slot_bytes<U>()
  uint32_t ctl = 0;         // barrier ids: ctl, and ring = ctl + 1
};
// A slot: u16 words[U][32] (step u's words, lane by lane), then u32 ballots[U].
template <int U>
__host__ __device__ constexpr uint32_t duo_slot_bytes() { return 64u * U + 4u * U; }
static_assert(DUO_CTL_BYTES + DUO_R * duo_slot_bytes<8>() <= ENC_WARP_BYTES, "the ring fits the helper's region");

__device__ __forceinline__ void bar_sync(uint32_t id, uint32_t n) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// enc_step for the coder of a pair: the low 16 bits of the state before the shed go to shared address a
// (unconditionally: the ballot says whether it is a word), instead of the word register and its store after
// the group.
__device__ __forceinline__ void enc_step_sts(uint32_t& x, const uint4& e, uint32_t& mask, uint32_t a) {
  asm volatile(
      "{\n\t.reg .pred s;\n\t.reg .b32 q, c;\n\t"
      "setp.ge.u32 s, %0, %5;\n\t"
      "vote.sync.ballot.b32 %1, s, -1;\n\t"
      "st.shared.u16 [%6], %0;\n\t"
      "@s shr.u32 %0, %0, 16;\n\t"
      "mul.hi.u32 q, %0, %2;\n\t"
      "shf.r.wrap.b32 q, q, 0, %4;\n\t"
      "shr.u32 c, %4, 5;\n\t"
      "add.u32 c, %0, c;\n\t"
      "mad.lo.u32 %0, q, %3, c;\n\t"
      "}"
      : "+r"(x), "=r"(mask)
      : "r"(e.x), "r"(e.y), "r"(e.z), "r"(e.w), "r"(a)
      : "memory");
}

// One group of the coder (steps t0 .. t0 - U + 1, ring slot k): as enc_group_full, but the words and
// ballots go to slot k, and the pair then meets at the ring barrier.
template <int W, int U>
__device__ __forceinline__ void duo_code_group(uint32_t (&buf)[U], int32_t t0, const uint8_t* lp, uint32_t tabS,
                                               uint32_t& x, const Duo& duo, uint32_t ringS, uint32_t k) {
  uint4 e[U];
#pragma unroll
  for (int u = 0; u < U; u++) e[u] = lds_u4(enc_tab_addr<W>(tabS, buf[u]));
  if (t0 >= 2 * U) {
    const uint8_t* q = lp + (size_t)(32u * W) * (uint32_t)(t0 - 2 * U);
#pragma unroll
    for (int u = 0; u < U; u++) buf[u] = load_elem_nc<W>(q - (size_t)(32u * W) * u);
  }
  const uint32_t slotS = ringS + k * duo_slot_bytes<U>();
  uint32_t mask[U];
  const uint32_t wa = slotS + 2u * lane_id();
#pragma unroll
  for (int u = 0; u < U; u++) enc_step_sts(x, e[u], mask[u], wa + 64u * u);
  if (lane_id() == 0) {
#pragma unroll
    for (int i = 0; i < U / 4; i++)
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(slotS + 64u * U + 16u * i), "r"(mask[4 * i]),
                   "r"(mask[4 * i + 1]), "r"(mask[4 * i + 2]), "r"(mask[4 * i + 3])
                   : "memory");
  }
  bar_sync(duo.ctl + 1u, 64);
}

// The coder's part of a segment of T steps (a multiple of U): encode_segment_full's chain, its words handed
// to the helper (duo_store_segment). Returns this lane's final state.
template <int W, int U>
__device__ __forceinline__ uint32_t duo_code_segment(const uint8_t* blk, uint32_t base, uint32_t T, const uint4* tab,
                                                     const Duo& duo, uint32_t x0 = UZIP_ANS_L) {
  static_assert(U % 4 == 0, "ballots go to the slot four at a time");
  const uint32_t lane = lane_id();
  const uint8_t* lp = blk + (size_t)(base + lane) * W;
  const uint32_t tb = (uint32_t)__cvta_generic_to_shared(tab), ringS = (uint32_t)__cvta_generic_to_shared(duo.ring);
  uint32_t x = x0;
  uint32_t ra[U], rb[U];
#pragma unroll
  for (int u = 0; u < U; u++) {
    ra[u] = load_elem_nc<W>(lp + (size_t)(32u * W) * (T - 1u - u));
    rb[u] = T >= 2u * U ? load_elem_nc<W>(lp + (size_t)(32u * W) * (T - 1u - U - u)) : 0u;
  }
  for (int32_t t0 = (int32_t)T - 1; t0 >= 0; t0 -= 2 * U) {
    duo_code_group<W, U>(ra, t0, lp, tb, x, duo, ringS, 0);
    if (t0 < U) break;  // T / U is odd: this was the last group
    duo_code_group<W, U>(rb, t0 - U, lp, tb, x, duo, ringS, 1);
  }
  return x;
}

// The helper's part of a segment of T steps: each group's words placed downward from pos exactly as
// enc_group_full places them. Returns false (and stops storing) when they would go under lo; it still
// meets the coder at every group, so that the pair stays in step.
template <int U>
__device__ __forceinline__ bool duo_store_segment(uint32_t T, uint16_t* out, int32_t& pos, int32_t lo, const Duo& duo) {
  const uint32_t lane = lane_id(), lt = lanemask_lt(), G = T / U;
  const uint32_t ringS = (uint32_t)__cvta_generic_to_shared(duo.ring);
  int32_t p = pos;
  bool ok = true;
  for (uint32_t g = 0; g < G; g++) {
    const uint32_t slotS = ringS + (g & 1u) * duo_slot_bytes<U>();
    bar_sync(duo.ctl + 1u, 64);
    uint32_t mask[U], w[U];
#pragma unroll
    for (int i = 0; i < U / 4; i++)
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(mask[4 * i]), "=r"(mask[4 * i + 1]), "=r"(mask[4 * i + 2]), "=r"(mask[4 * i + 3])
                   : "r"(slotS + 64u * U + 16u * i)
                   : "memory");
#pragma unroll
    for (int u = 0; u < U; u++)
      asm volatile("ld.shared.u16 %0, [%1];" : "=r"(w[u]) : "r"(slotS + 64u * u + 2u * lane) : "memory");
    int32_t c = 0;
#pragma unroll
    for (int u = 0; u < U; u++) c += __popc(mask[u]);
    ok = ok && p - c >= lo;
    if (ok) {
#pragma unroll
      for (int u = 0; u < U; u++) {
        p -= __popc(mask[u]);
        if ((mask[u] >> lane) & 1u) out[p + __popc(mask[u] & lt)] = (uint16_t)w[u];
      }
    }
  }
  pos = p;
  return ok;
}

// Zeroes a warp's symbol sub-histograms and remainder counts (its shared region sm).
__device__ __forceinline__ void zero_hists(uint8_t* sm) {
  const uint32_t lane = lane_id();
  uint32_t* hist = (uint32_t*)(sm + ENC_UNION);
  uint32_t* cntr = (uint32_t*)(sm + ENC_CNTR);
  for (uint32_t i = lane; i < ENC_HIST_BYTES / 16u; i += 32) ((uint4*)hist)[i] = make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int i = 0; i < 8; i++) cntr[lane + 32 * i] = 0;
  __syncwarp();
}

// The rest of a warp pair's helper for a block, after its half of the histogram pass (compress_block with
// helper = true): its CONST test and checksum part, then the word stores of each segment the coder codes,
// until the coder is done with the block.
template <int U>
__device__ __forceinline__ void duo_helper_rest(uint16_t* stage, const Duo& duo, bool constR, uint32_t csumPart,
                                                uint32_t* csumAcc) {
  const uint32_t lane = lane_id();
  *csumAcc += csumPart;
  volatile DuoCtl* c = duo.c;
  if (lane == 0) c->constR = constR;
  bar_sync(duo.ctl, 64);  // the coder folds both halves
  while (true) {
    bar_sync(duo.ctl, 64);
    if (c->cmd == DUO_CMD_DONE) break;
    int32_t pos = c->pos;
    const bool ok = duo_store_segment<U>(c->T, stage, pos, c->lo, duo);
    if (lane == 0) {
      c->pos = pos;
      c->ok = ok;
    }
    bar_sync(duo.ctl, 64);
  }
}

// One group of the histogram pass off its fast paths (compress_block): unpacked element by element, a whole
// group without per-element tests, a block's last, partial group with them.
// WHOLE: the caller knows the group is whole and its words loaded (group_whole), so only that path is compiled.
// SYM: a whole group also stores its 16 symbol bytes at symOut + 16 g (the staged symbol plane of a SYM
// kernel, compress_block).
template <int W, bool WHOLE = false, bool SYM = false>
__device__ __forceinline__ void hist_group_slow(const uint8_t* blk, uint32_t g, uint32_t m, bool aligned, const uint4 (&qd)[W],
                                                 uint32_t* hist, uint32_t* cntr, uint32_t sub, bool doRem, bool fusedRem,
                                                 uint8_t* remOut, uint32_t remLimit, uint32_t rem0, bool doSum,
                                                 uint64_t word0, bool& constR, uint32_t& csum, uint8_t* symOut = nullptr) {
  const uint32_t rw = W > 1 ? W - 1 : 0;
  const uint32_t valid = WHOLE ? 16u : m - 16u * g;
  uint32_t v[16];
  if (WHOLE) {
    const uint32_t* w = (const uint32_t*)qd;
#pragma unroll
    for (int i = 0; i < 16; i++) v[i] = W == 1 ? (w[i >> 2] >> (8 * (i & 3))) & 0xFFu
                                      : W == 2 ? (w[i >> 1] >> (16 * (i & 1))) & 0xFFFFu : w[i];
  } else {
    unpack_group<W>(blk, g, m, aligned, qd, v);
  }
  if (WHOLE || valid >= 16u) {  // whole group (all but a block's last): no per-element tests, no branches
    uint32_t dR = 0, sy[4] = {0, 0, 0, 0};
    if (fusedRem) store_rem_group<W>(v, remOut, 16u * rw * g, remLimit);
#pragma unroll
    for (int i = 0; i < 16; i++) {
      uint32_t s = uzip_symbol_of(v[i], W);
      if (SYM) sy[i >> 2] |= s << (8 * (i & 3));
      atomicAdd(&hist[s * 8u + sub], 1u);
      if (doRem) {
        const uint32_t r = uzip_remainder_of(v[i], W);
        dR |= r ^ rem0;
        if (REM_COUNT_ALL<W>)
#pragma unroll
          for (int j = 0; j < (W > 1 ? W - 1 : 1); j++) atomicAdd(&cntr[(r >> (8 * j)) & 0xFFu], 1u);
      }
    }
    constR &= dR == 0;
    if (SYM) *(uint4*)(symOut + 16u * g) = make_uint4(sy[0], sy[1], sy[2], sy[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 16; i++) {
      uint32_t s = uzip_symbol_of(v[i], W);
      if ((uint32_t)i < valid) {
        atomicAdd(&hist[s * 8u + sub], 1u);
        if (doRem) {
          const uint32_t r = uzip_remainder_of(v[i], W);
          constR &= r == rem0;
          if (REM_COUNT_ALL<W>)
#pragma unroll
            for (int j = 0; j < (W > 1 ? W - 1 : 1); j++) atomicAdd(&cntr[(r >> (8 * j)) & 0xFFu], 1u);
        }
      }
    }
  }
  if (doSum) {
#pragma unroll
    for (int i = 0; i < W * 4; i++)
      if ((uint32_t)(4 * i) < valid * W) csum += uzip_checksum_term(group_word<W>(v, i), word0 + 16u * g * W / 4 + i);
  }
}
// hist_group_slow out of line, for the groups off every kernel's fast path (compress_block says why). The
// group's words and the two running results travel by value: through a reference the caller kept every
// group's loaded words in local memory, stored on the fast path too.
template <int W>
struct HistGroup {
  uint4 q[W];
};
struct HistRunning {
  uint32_t csum;
  bool constR;
};
template <int W>
__device__ __noinline__ HistRunning hist_group_rare(const uint8_t* blk, uint32_t g, uint32_t m, bool aligned,
                                                    HistGroup<W> qd, uint32_t* hist, uint32_t* cntr, uint32_t sub,
                                                    bool doRem, bool fusedRem, uint8_t* remOut, uint32_t remLimit,
                                                    uint32_t rem0, bool doSum, uint64_t word0, HistRunning run) {
  hist_group_slow<W>(blk, g, m, aligned, qd.q, hist, cntr, sub, doRem, fusedRem, remOut, remLimit, rem0, doSum, word0,
                     run.constR, run.csum);
  return run;
}

// Codes block b. A block whose remainder plane is not ANS is "deferred": its symbol section is left
// complete in the stage, its aggregate published, and finish_deferred writes it later (after the warp's
// next block). Blocks with an ANS remainder plane are finished here.
// SYM (four-byte types, lone warps, not LEAN): the histogram pass stores each whole group's symbol bytes in the
// stage (after its words: enc_stage_bytes), and the coding pass reads those, one byte an element, instead of the
// block's four-byte elements again (which the L2 no longer holds by then: the block is read twice from DRAM).
template <int W, int U, bool DUO = false, bool REV = false, bool LEAN = false, bool SYM = false>
__device__ __forceinline__ void compress_block(const EncParams& P, uint8_t* sm, uint16_t* stage, uint32_t b,
                                               uint32_t* csumAcc, BlockPlan& plan, const Duo& duo = Duo{},
                                               bool helper = false) {
  const uint32_t lane = lane_id();
  uint32_t* cnt = (uint32_t*)(sm + ENC_CNT);
  uint32_t* cntr = (uint32_t*)(sm + ENC_CNTR);
  uint32_t* fsym = (uint32_t*)(sm + ENC_FSYM);
  uint32_t* frem = (uint32_t*)(sm + ENC_FREM);
  uint4* tab = (uint4*)(sm + ENC_TAB);
  uint32_t* states = (uint32_t*)(sm + ENC_STATES);
  uint32_t* nws = (uint32_t*)(sm + ENC_NW);
  uint32_t* soff = (uint32_t*)(sm + ENC_SOFF);

  const uint32_t rw = W > 1 ? W - 1 : 0;
  const bool split = (P.flags & UZIP_FLAG_SPLIT) != 0;
  const bool doRem = W > 1 && !split;
  const uint64_t start = (uint64_t)b << P.log2Block;
  const uint32_t m = uzip_block_len(P.count, P.log2Block, b);
  const uint8_t* blk = P.src + start * W;
  const bool aligned = P.srcAligned16 != 0;
  static_assert(!SYM || (W == 4 && !DUO && !REV && !LEAN), "the staged symbol plane is for lone-warp four-byte kernels");
  uint8_t* const symOut = SYM ? (uint8_t*)stage + enc_words_bytes(P.log2Block) : nullptr;
  // Every group whole (so the pass stored every symbol) and every segment a multiple of the coding loop's
  // groups (so only encode_segment_full reads them).
  const bool stagedSym = SYM && aligned && m % (32u * U) == 0;
  UZIP_CLK_DECL;

  // 1. Histograms (symbols: 8 sub-histograms of u32 counters, lane & 7, so that the few exponents that
  //    dominate a block serialize the atomics at most 4 ways; this measured faster than 16 sub-histograms
  //    of packed 16-bit pairs, whose increments cost three more instructions per element), constant
  //    tests, checksum.
  uint32_t* hist = (uint32_t*)(sm + ENC_UNION);
  if (!DUO) zero_hists(sm);  // (a warp pair's coder zeroes them before the ticket: compress_pairs)
  const uint32_t v0 = load_elem<W>(blk);
  const uint32_t sym0 = uzip_symbol_of(v0, W), rem0 = uzip_remainder_of(v0, W);
  bool constR = true;
  uint32_t csum = 0;
  const bool doSum = (P.flags & UZIP_FLAG_CHECKSUM) != 0;
  const uint64_t word0 = start * W / 4;
  const uint32_t ng = (m + 15u) / 16u;
  const uint32_t sub = lane & 7u;
  // Groups of 16 elements in flight per lane. The wait on these loads is 9% of the compress kernel's stall
  // samples (bench/results/h200-2026-12-02T0200-session13/2-encstep), but twice as many in flight made it
  // 5-15% slower (3-copies).
  constexpr int D = W == 4 ? 2 : 4;
  // Split layout: the remainder plane's place is known before any look-back, so this pass, which has the
  // elements in registers, writes it (when every group is whole) instead of a second read of the block.
  const bool fusedRem = W > 1 && split && aligned && (m & 15u) == 0;
  const bool stagedRem = W == 2 && !split && aligned && (m & 15u) == 0;  // RAW remainders from the stage
  uint8_t* const remStage = (uint8_t*)stage + enc_words_bytes(P.log2Block);
  // Seeded streams (FORMAT.md "Lean sections"): each seeded segment's last elements' remainders ride in its
  // lanes' first states (or the seed section), not in the split plane, whose block parts are that much shorter.
  const bool seeded = LEAN && W > 1 && uzip_seeded_stream(P.dtype, P.flags);
  constexpr bool lean = LEAN;  // LEAN: the kernels of LEAN streams (compress_kernel)
  uint8_t* const remOut =
      P.dst + UZIP_HEADER_BYTES + (seeded ? uzip_split_plane_block_offset(b, P.dtype, P.flags, P.log2Block) : start * rw);
  const uint32_t remLimit = (uint32_t)uzip_pad16((uint64_t)m * rw);
  // Where the plane holds group g (16 elements), ~0u for a seeded group (seeded_group_off). The out-of-line
  // group path stores at remOut + 16 rw g: it gets remOut moved by the difference (LEAN kernels only).
  auto remOffOf = [&](uint32_t g) -> uint32_t { return seeded ? seeded_group_off<W>(g, m) : 16u * rw * g; };
  auto remOutOf = [&](uint32_t g, uint32_t off) -> uint8_t* {
    return off == 0xFFFFFFFFu ? remOut : remOut + off - 16u * rw * g;  // (~0u: no store, fusedRem is false then)
  };
  // A warp pair's helper takes every other round of D groups a lane (the coder the first).
  constexpr uint32_t roundGroups = 32u * D * (DUO ? 2u : 1u);  // groups a warp's round of loads covers
  for (uint32_t g0 = lane + (helper ? 32u * D : 0u); g0 < ng; g0 += roundGroups) {
    uint4 q[D][W];
#pragma unroll
    for (int d = 0; d < D; d++) load_group_raw<W>(blk, g0 + 32u * d, m, aligned, q[d]);
    // One- and two-byte types: the warp's next round of groups (4 KB, fp8 2 KB) toward the L2, one line (fp8 half
    // a line) a lane, while this round's loads are in flight: a round waited on DRAM at every start (the pass
    // reading from the L2 compressed large bf16 tensors 9-12% faster: session 46, 1-l2-alias). One round ahead,
    // unlike the whole next block (session 46, 3-next-modes) or two or three rounds (session 47), is close enough
    // that the L2 keeps the lines: ncu of a 1 GiB bf16 split compression on an H100, L2 read hits 6.5M -> 20.7M
    // sectors, DRAM reads 2.13 GB as before. H100, against no prefetch: bf16 split +0.4-2.7% from 256 MiB, fp16 and
    // bf16 default layout +0.6-1.8%; fp8 +1-2% (session 47, 2-prefetch-distance-fp8); rounds 2 / 3 ahead lost
    // 1-3% / 3-7%. fp32 lost 2-4% with it (session 46, 5-hist-prefetch), so its kernels have none.
    if constexpr (W != 4) {
      const uint32_t nextByte = (g0 - lane + roundGroups) * 16u * W + lane * (16u * D * W);
      if (nextByte < m * W) asm volatile("prefetch.global.L2 [%0];" ::"l"(blk + nextByte));
    }
#pragma unroll
    for (int d = 0; d < D; d++) {
      const uint32_t g = g0 + 32u * d;
      if (g >= ng) break;
      uint32_t valid = m - 16u * g;
      if (W == 2 && valid >= 16u && aligned) {
        // Two-byte types, whole group: work on the 8 loaded words (two elements each) directly. Symbol
        // s = (e >> 7) & 0xFF; its counter is row s (32 bytes a row), column sub.
        const uint32_t* wd = (const uint32_t*)q[d];
        const uint32_t hb = (uint32_t)__cvta_generic_to_shared(hist) + 4u * sub;
#pragma unroll
        for (int i = 0; i < 8; i++) {  // row s at hb + 32 s: the exponent field moved down by 2 and by 18
          const uint32_t w = wd[i];
          asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(add_shr<2>(hb, w & 0x7F80u)) : "memory");
          asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(add_shr<18>(hb, w & 0x7F800000u)) : "memory");
        }
        if (doRem || fusedRem || stagedRem) {  // remainder r = ((e & 0x7F) << 1) | (e >> 15), four per word
          uint32_t pk[4];
#pragma unroll
          for (int j = 0; j < 4; j++) pk[j] = rem_bytes4(wd[2 * j], wd[2 * j + 1]);
          // The CONST test (every remainder equals the block's first); the counts are the sample's
          // (REM_COUNT_ALL<2> is false), taken after this pass.
          if (doRem) {
            const uint32_t r4 = rem0 * 0x01010101u;
            constR &= ((pk[0] ^ r4) | (pk[1] ^ r4) | (pk[2] ^ r4) | (pk[3] ^ r4)) == 0;
          }
          if constexpr (LEAN) {
            if (fusedRem || stagedRem) {
              const uint32_t off = fusedRem ? remOffOf(g) : 16u * g;
              if (off != 0xFFFFFFFFu)
                *(uint4*)((fusedRem ? remOut : remStage) + off) = make_uint4(pk[0], pk[1], pk[2], pk[3]);
            }
          } else if (fusedRem || stagedRem) {
            *(uint4*)((fusedRem ? remOut : remStage) + 16u * g) = make_uint4(pk[0], pk[1], pk[2], pk[3]);
          }
        }
        if (doSum) {
#pragma unroll
          for (int i = 0; i < 8; i++) csum += uzip_checksum_term(wd[i], word0 + 8u * g + i);
        }
        continue;
      }
      // The groups off the fast path (a block's last, partial group; unaligned input; for two-byte types
      // every group not taken above) go out of line: unrolled D times in this loop, their code made its body
      // 4217 SASS instructions in the lone-warp bf16 kernel (895 now; fp32 1913 -> 1039, fp8 2514 -> 852),
      // and instruction fetch was what the warps waited on (ncu of a 1 GiB bf16 split compression: stall
      // no_instruction 0.99 -> 0.52 a issue; 0.92 -> 0.96 TB/s, 4 GiB 0.93 -> 0.98; fp16 and fp8 +2-4%, fp32
      // level within 2%: bench/results/h200-2026-12-04T0950-session29). Session 19 measured the lone warps
      // with the words passed by reference, which spilled them, and lost.
      if constexpr (W != 2) {  // one- and four-byte types: whole groups inline (their fast path)
        if (group_whole<W>(g, m, aligned)) {
          if constexpr (LEAN) {
            const uint32_t off = remOffOf(g);
            hist_group_slow<W, true>(blk, g, m, aligned, q[d], hist, cntr, sub, doRem, fusedRem && off != 0xFFFFFFFFu,
                                     remOutOf(g, off), remLimit, rem0, doSum, word0, constR, csum);
          } else {
            hist_group_slow<W, true, SYM>(blk, g, m, aligned, q[d], hist, cntr, sub, doRem, fusedRem, remOut, remLimit,
                                          rem0, doSum, word0, constR, csum, symOut);
          }
          continue;
        }
      }
      {
        HistGroup<W> qd;
#pragma unroll
        for (int k = 0; k < W; k++) qd.q[k] = q[d][k];
        HistRunning run;
        if constexpr (LEAN) {
          const uint32_t off = remOffOf(g);
          run = hist_group_rare<W>(blk, g, m, aligned, qd, hist, cntr, sub, doRem, fusedRem && off != 0xFFFFFFFFu,
                                   remOutOf(g, off), remLimit, rem0, doSum, word0, HistRunning{csum, constR});
        } else {
          run = hist_group_rare<W>(blk, g, m, aligned, qd, hist, cntr, sub, doRem, fusedRem, remOut, remLimit, rem0,
                                   doSum, word0, HistRunning{csum, constR});
        }
        csum = run.csum;
        constR = run.constR;
      }
    }
  }
  if constexpr (DUO) {
    if (helper) {  // the helper's half is done: its CONST test and checksum, then the coder's word stores
      duo_helper_rest<U>(stage, duo, __all_sync(FULL_MASK, constR), doSum ? warp_sum_u32(csum) : 0u, csumAcc);
      return;
    }
    bar_sync(duo.ctl, 64);  // the helper's atomics have landed and its CONST test is in the control words
    constR &= duo.c->constR != 0;
  }
  __syncwarp();  // every lane's histogram atomics land before any lane folds
  UZIP_CLK(0);
  {
    // Fold the sub-histograms (start column (j + lane / 4) % 8: 32 banks), every row's sum before the first
    // count's store: a row's loads placed after the previous row's store wait for it (the compiler cannot
    // tell hist from cnt), eight chains of a load and four adds (~50 cycles each) on the block's latency.
    // With build_enc_table's and warp_normalize's loads likewise first (session 56, H100, two rounds, 20
    // calls back to back): bf16 split compress 64 KiB 18.0 -> 17.2-17.3 us, 1 MiB 19.8 -> 19.0, 4 MiB 21.1
    // -> 20.3-20.4; fp16 1 MiB 27.8-28.0 -> 27.2-27.5; level from 16 MiB (bench/results/
    // h100-2026-12-08-session56/2-enc-loads).
    uint32_t c[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const uint32_t s = lane + 32u * i;
      c[i] = 0;
#pragma unroll
      for (uint32_t j = 0; j < 8u; j++) c[i] += hist[s * 8u + ((j + (lane >> 2)) & 7u)];
    }
#pragma unroll
    for (int i = 0; i < 8; i++) cnt[lane + 32u * i] = c[i];
  }
  __syncwarp();  // the folds are read before the union region becomes the frequency tables
  const bool constS = cnt[sym0] == m;  // every symbol equals the first
  constR = __all_sync(FULL_MASK, constR);
  if (doSum) *csumAcc += warp_sum_u32(csum);
  UZIP_CLK(1);

  // 2. Modes and section sizes.
  uint32_t symMode, symSec, remMode = UZIP_MODE_NONE, remSec = 0;
  bool remStaged = stagedRem;  // the stage holds the raw remainder plane (until an ANS section replaces it)
  bool remAnsStaged = false;   // the stage holds the finished remainder ANS section
  uint32_t secStart = 0, remStart = 0;  // the plan's (BlockPlan), written to it with the rest below
  const uint32_t nsegS = uzip_ans_nseg(m);
  if (constS) {
    symMode = UZIP_MODE_CONST;
    symSec = 1;
  } else {
    symMode = UZIP_MODE_RAW;
    symSec = m;
    uint64_t bits;
    uint32_t k = warp_normalize(cnt, m, fsym, &bits);
    uint64_t est = uzip_ans_table_bytes(k) + (uint64_t)nsegS * UZIP_ANS_SEG_HEADER_BYTES + (bits + 2047u) / 2048u;
    UZIP_CLK(2);
    if (est < m) {
      build_enc_table(fsym, tab);
      UZIP_CLK(3);
      const int32_t cap = (int32_t)(m / 2u);
      const uint32_t tb = table_bytes_dev(fsym, lean, k);  // the table as written (est weighs the bitmap form's)
      // The stage ends up holding the finished section, so that the block can be deferred. One segment:
      // its words stay where they are coded and the table and segment header go right before them.
      // Several: each segment's words move down to their place (the table at byte 0, then per segment its
      // header, words and padding). Keeping that room cannot change the mode: words that reach into it
      // make the section at least the raw plane's size, i.e. RAW anyway.
      int32_t front = (int32_t)((tb + UZIP_ANS_SEG_HEADER_BYTES + 1u) / 2u);
      bool ok = true;
      uint32_t sec = tb;
      // Segment sg's words, coded downward into [pos, end) of the stage, to their place (several segments)
      // or left where they are (one), with its state and word count.
      auto place = [&](uint32_t sg, int32_t pos, int32_t end, uint32_t x) {
        const int32_t nw = end - pos;
        if (nsegS > 1) {
          move_words_down(stage, pos, front, nw);
          if (lane == 0) {
            soff[sg] = (uint32_t)front;
            if (nw & 1) stage[front + nw] = 0;  // the segment's padding to 4 bytes
          }
        } else if (lane == 0) {
          soff[sg] = (uint32_t)pos;  // a lone segment's words stay where they were coded
        }
        states[sg * 32 + lane] = x;
        if (lane == 0) nws[sg] = (uint32_t)nw;
        front += nw + (nw & 1) + (int32_t)(UZIP_ANS_SEG_HEADER_BYTES / 2u);  // after the padding and next header
        sec += UZIP_ANS_SEG_HEADER_BYTES + ((2u * (uint32_t)nw + 3u) & ~3u);
      };
      // REV kernels: two segments (2^15-element blocks) are coded last first, each downward into the
      // stage right below the header of the one after it, so that no words move (the other kernels move
      // each segment's words down to their place: with the move skipped, a diagnostic build compressed
      // bf16 at 2^15 7-8% faster, bench/results/h200-2026-12-04T0430-session28/3-revseg). The stage then
      // holds the section in final form but for the first segment's pad word when its word count is odd:
      // the copy-out inserts it (the pad's offset in secStart's high half, copy_section_gap). One loop
      // for both orders: a second copy of the coding loop changed its SASS.
      const bool rev = REV && nsegS == 2;
      int32_t top = cap;  // rev: where the next segment's words end
      for (uint32_t i = 0; i < nsegS && ok; i++) {
        const uint32_t sg = rev ? nsegS - 1u - i : i;
        uint32_t len = min(m - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
        // rev: the segment is coded into a view of the stage moved down by cap - top words, with the room
        // below for the table and the headers of segments 0 .. sg (the words of those before sg come later;
        // a section that does not fit is not smaller than RAW anyway). The coding call is the same either
        // way: a view, not other arguments, so that the coding loop compiles as in the other kernels.
        const int32_t delta = cap - top;
        if (rev) front = (int32_t)((tb + (sg + 1u) * UZIP_ANS_SEG_HEADER_BYTES) / 2u) + delta;
        uint16_t* const view = stage - delta;
        int32_t pos = cap;
        uint32_t x;
        bool paired = false;
        const uint32_t x0 = seeded_x0<W>(blk, sg * UZIP_ANS_SEG_SYMS, len, seeded);
        if constexpr (DUO) {
          if (len % (32u * U) == 0) {  // the coder codes, the helper stores
            if (lane == 0) {
              duo.c->cmd = DUO_CMD_CODE;
              duo.c->T = len / 32u;
              duo.c->pos = pos;
              duo.c->lo = front;
            }
            bar_sync(duo.ctl, 64);
            x = duo_code_segment<W, U>(blk, sg * UZIP_ANS_SEG_SYMS, len / 32u, tab, duo, x0);
            bar_sync(duo.ctl, 64);
            ok = ((volatile DuoCtl*)duo.c)->ok != 0;
            pos = ((volatile DuoCtl*)duo.c)->pos;
            paired = true;
          }
        }
        bool staged = false;
        if constexpr (SYM) {
          if (stagedSym) {
            ok = encode_segment_full<1, U, false, true>(symOut, sg * UZIP_ANS_SEG_SYMS, len / 32u, tab, view, &pos,
                                                        front, &x);
            staged = true;
          }
        }
        if (!paired && !staged)
          ok = len % (32u * U) == 0
                   ? encode_segment_full<W, U>(blk, sg * UZIP_ANS_SEG_SYMS, len / 32u, tab, view, &pos, front, &x, x0)
                   : encode_segment<W, false, U>(blk, sg * UZIP_ANS_SEG_SYMS, len, tab, view, &pos, front, &x, x0);
        if (!ok) break;
        if (rev) {
          pos -= delta;
          const int32_t nw = top - pos;
          if (lane == 0) {
            soff[sg] = (uint32_t)pos;
            nws[sg] = (uint32_t)nw;
          }
          states[sg * 32 + lane] = x;
          sec += UZIP_ANS_SEG_HEADER_BYTES + ((2u * (uint32_t)nw + 3u) & ~3u);
          top = pos - (int32_t)(UZIP_ANS_SEG_HEADER_BYTES / 2u);
        } else {
          place(sg, pos, cap, x);
        }
      }
      __syncwarp();
      if (ok && sec < m) {
        symMode = UZIP_MODE_ANS;
        symSec = sec;
        if (nsegS == 1) {
          secStart = finish_lone_section<LEAN>(stage, soff[0], cap, nws[0], tb, fsym, states[lane]);
        } else if (rev) {
          secStart = 2u * (uint32_t)top - tb;  // < 2^15: a 2^15-element block's words fit its stage
          secStart |= finish_two_segments<LEAN>(stage, secStart, cap, tb, fsym, sm) << 16;
        } else {  // the table at byte 0, each segment's header right before its words (4-aligned)
          uint8_t* sb = (uint8_t*)stage;
          write_ans_table<LEAN>(sb, fsym);
          for (uint32_t sg = 0; sg < nsegS; sg++) {
            uint32_t* h32 = (uint32_t*)(sb + 2u * soff[sg] - UZIP_ANS_SEG_HEADER_BYTES);
            if (lane == 0) h32[0] = nws[sg];
            h32[1 + lane] = states[sg * 32 + lane];
          }
          secStart = 0;
        }
      }
    }
  }
  if constexpr (DUO) {  // the helper is done with this block (duo_helper_rest)
    if (lane == 0) duo.c->cmd = DUO_CMD_DONE;
    bar_sync(duo.ctl, 64);
  }
  UZIP_CLK(4);
  if (W > 1) {
    if (split) {
      remMode = UZIP_MODE_EXTERNAL;
    } else if (constR) {
      remMode = UZIP_MODE_CONST;
      remSec = rw;
    } else {
      const uint32_t raw = m * rw, nsegR = uzip_ans_nseg(raw);
      remMode = UZIP_MODE_RAW;
      remSec = raw;
      bool weigh = true;
      if (!REM_COUNT_ALL<W>) {  // FORMAT.md step 2: the sample first; mostly it settles the plane RAW
        const uint32_t ng = (m + 15u) / 16u, ns = min(ng, REM_SAMPLE_GROUPS);
        const uint32_t sampleBytes = min(m, UZIP_REM_SAMPLE_ELEMS) * rw;  // the groups [0, ns)
        count_rem_groups<W>(blk, m, aligned, 0, ns, cntr);
        if (sampleBytes < raw) {
          uint64_t sbits;
          const uint32_t sk = warp_normalize(cntr, sampleBytes, frem, &sbits);
          weigh = !uzip_rem_sample_says_raw(sk, sbits, sampleBytes, raw);
        }
        if (weigh) count_rem_groups<W>(blk, m, aligned, ns, ng, cntr);
      }
      uint64_t bits = 0;
      const uint32_t k = weigh ? warp_normalize(cntr, raw, frem, &bits) : 0u;
      uint32_t tb = uzip_ans_table_bytes(k);
      uint64_t est = tb + (uint64_t)nsegR * UZIP_ANS_SEG_HEADER_BYTES + (bits + 2047u) / 2048u;
      // LEAN: the table as written (the estimate weighs the bitmap form's, FORMAT.md "Lean sections").
      if (LEAN && weigh && est < uzip_ans_est_limit(raw, 1)) tb = table_bytes_dev(frem, true, k);
      if (weigh && est < uzip_ans_est_limit(raw, 1) && W == 2 && remStaged && nsegR == 1) {
        // One remainder segment of a two-byte type whose raw remainders are staged: coded once, into the
        // staged plane's place (the coder reads the input; from here on a RAW plane is written from the
        // input), and finished there in final form as a lone symbol segment is, so that the block is
        // deferred like any other. Before, such a block sized its plane by a counting pass, waited on its
        // look-back at once and coded the plane again into place: ~5x a plain block's cycles, with every
        // later block waiting on its offset (bench/results/h200-2026-12-01T2335-session12/2-weights).
        build_enc_table(frem, tab);
        remStaged = false;
        uint16_t* rs = (uint16_t*)((uint8_t*)stage + enc_words_bytes(P.log2Block));
        // Words end one u16 below the plane's end, so that an odd count's padding word stays inside it.
        // That room still holds any section smaller than raw (raw is a multiple of 16 here), so the mode
        // is the CPU codec's.
        const int32_t cap = (int32_t)(raw / 2u) - 1, front = (int32_t)((tb + UZIP_ANS_SEG_HEADER_BYTES) / 2u);
        int32_t pos = cap;
        uint32_t x;
        const bool ok = raw % (32u * U) == 0
                            // (W == 2: the branch is dead code for other widths, never instantiated)
                            ? encode_segment_full<W, U, (W == 2)>(blk, 0, raw / 32u, tab, rs, &pos, front, &x)
                            : encode_segment<W, true, U>(blk, 0, raw, tab, rs, &pos, front, &x);
        const uint32_t nw = (uint32_t)(cap - pos), sec = tb + UZIP_ANS_SEG_HEADER_BYTES + ((2u * nw + 3u) & ~3u);
        if (ok && sec < raw) {
          remMode = UZIP_MODE_ANS;
          remSec = sec;
          remStart = finish_lone_section<LEAN>(rs, (uint32_t)pos, cap, nw, tb, frem, x);
          remAnsStaged = true;
        }
        __syncwarp();
      } else if (weigh && est < uzip_ans_est_limit(raw, 1)) {
        build_enc_table(frem, tab);
        const int32_t budget = (int32_t)((raw - tb - nsegR * UZIP_ANS_SEG_HEADER_BYTES) / 2u);
        int32_t pos = 0;
        bool ok = true;
        uint32_t sec = tb;
        for (uint32_t sg = 0; sg < nsegR; sg++) {
          uint32_t len = min(raw - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
          int32_t before = pos;
          uint32_t x;
          ok = encode_segment<W, true, U>(blk, sg * UZIP_ANS_SEG_SYMS, len, tab, nullptr, &pos, -budget, &x);
          if (!ok) break;
          uint32_t nw = (uint32_t)(before - pos);
          if (lane == 0) nws[4 + sg] = nw;
          sec += UZIP_ANS_SEG_HEADER_BYTES + ((2u * nw + 3u) & ~3u);
        }
        __syncwarp();
        if (ok && sec < raw) {
          remMode = UZIP_MODE_ANS;
          remSec = sec;
        }
      }
    }
  }

  UZIP_CLK(5);
  // 3. Offset by look-back: publish now; resolve now, or (deferred) after the warp's next block.
  const uint32_t symPad = (uint32_t)uzip_pad16(symSec), remPad = (uint32_t)uzip_pad16(remSec);
  // A seeded stream's RAW or CONST symbol plane is followed by its seed section (plan_seed_bytes).
  const uint32_t seedSec = seeded && symMode != UZIP_MODE_ANS ? uzip_block_seed_bytes(m, P.dtype, P.flags) : 0u;
  const uint64_t agg = (uint64_t)symPad + seedSec + remPad;
  lb_publish(P.lookback, b, agg, P.epoch);
  const bool deferred = remMode != UZIP_MODE_ANS || remAnsStaged;
  if (lane == 0) {  // plan is in shared memory (compress_kernel's ring): one lane writes it
    plan.b = b;
    plan.m = m;
    plan.symMode = symMode;
    plan.remMode = remMode;
    plan.symSec = symSec;
    plan.remSec = remSec;
    plan.sym0 = sym0;
    plan.rem0 = rem0;
    plan.fusedRem = fusedRem;
    plan.stagedRem = remStaged;
    plan.deferred = deferred;
    plan.secStart = secStart;
    plan.remStart = remStart;
  }
  __syncwarp();
  if (deferred) {
    UZIP_CLK_MAX(9);  // its coding; finish_deferred's copy-out comes later
    return;
  }
  const uint64_t excl = lb_resolve(P.lookback, b, agg, P.epoch);
  const uint64_t end = excl + agg;
  UZIP_CLK(6);
  write_dir_entry(P, b, end, symMode, remMode);

  // 4. Payload (a block with several symbol segments or an ANS remainder plane).
  uint8_t* out = P.dst + P.payloadOff + excl;
  if (symMode != UZIP_MODE_ANS) {  // (not a seeded stream's: its blocks are all deferred, no remainder ANS)
    write_plain_sym<W>(P, plan, out, symPad);
  } else {
    uint32_t off = write_ans_table<LEAN>(out, fsym);
    for (uint32_t sg = 0; sg < nsegS; sg++) {
      const uint32_t nw = nws[sg], so = soff[sg];
      uint8_t* seg = out + off;
      if (lane == 0) *(uint32_t*)seg = nw;
      *(uint32_t*)(seg + 4 + 4 * lane) = states[sg * 32 + lane];
      uint32_t* wd = (uint32_t*)(seg + UZIP_ANS_SEG_HEADER_BYTES);  // 4-aligned; pairs of words
      // Pairs of words as u32 loads of the stage (which starts on a word of either parity): a funnel
      // shift realigns them; the last odd word is masked.
      const uint32_t* s32 = (const uint32_t*)(stage + (so & ~1u));
      const uint32_t sh = (so & 1u) << 4;
      for (uint32_t i = lane; 2u * i < nw; i += 32) {
        uint32_t v = __funnelshift_r(s32[i], sh ? s32[i + 1] : 0u, sh);
        if (2u * i + 1u == nw) v &= 0xFFFFu;
        wd[i] = v;
      }
      off += UZIP_ANS_SEG_HEADER_BYTES + ((2u * nw + 3u) & ~3u);
    }
    zero_words(out, off, symPad);
  }
  if (W > 1) {
    uint8_t* ro = out + symPad;
    if (remMode != UZIP_MODE_ANS) {
      write_plain_rem<W, LEAN>(P, plan, (const uint8_t*)stage, ro, remPad);
    } else {  // ANS: table, then code again straight into place
      const uint32_t raw = m * rw, nsegR = uzip_ans_nseg(raw);
      uint32_t off = write_ans_table<LEAN>(ro, frem);
      for (uint32_t sg = 0; sg < nsegR; sg++) {
        uint32_t nw = nws[4 + sg];
        uint8_t* seg = ro + off;
        uint32_t len = min(raw - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
        int32_t pos = (int32_t)nw;
        uint32_t x;
        encode_segment<W, true, U>(blk, sg * UZIP_ANS_SEG_SYMS, len, tab, (uint16_t*)(seg + UZIP_ANS_SEG_HEADER_BYTES),
                                &pos, 0, &x);
        if (lane == 0) *(uint32_t*)seg = nw;
        *(uint32_t*)(seg + 4 + 4 * lane) = x;
        if ((nw & 1u) && lane == 0) ((uint16_t*)(seg + UZIP_ANS_SEG_HEADER_BYTES))[nw] = 0;
        off += UZIP_ANS_SEG_HEADER_BYTES + ((2u * nw + 3u) & ~3u);
      }
      zero_words(ro, off, remPad);
    }
  }
  __syncwarp();
  UZIP_CLK(7);
  UZIP_CLK_MAX(9);
#ifdef UZIP_STAGE_CLOCKS
  if (lane == 0) atomicAdd(&g_uzip_stage_clk[15], 1ull);
#endif
}

// Copies a finished section of `bytes` bytes from src (2-aligned) to out (16-aligned) and zero-fills it
// to padBytes (a multiple of 16). A lane writes 16-byte chunks, four in flight, each from five u32 loads
// realigned by funnel shifts (the stage has 64 bytes of slack past any section for the fifth word).
__device__ __forceinline__ void copy_section(const uint8_t* src, uint32_t bytes, uint8_t* out, uint32_t padBytes) {
  constexpr int K = 4;
  const uint32_t mis = (uint32_t)((uintptr_t)src & 3u), sh = mis * 8u;
  const uint32_t* s32 = (const uint32_t*)(src - mis);
  const uint32_t n16 = padBytes / 16u;
  for (uint32_t c0 = lane_id(); c0 < n16; c0 += 32u * K) {
    uint32_t w[K][5];
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t c = c0 + 32u * j;
#pragma unroll
      for (int k = 0; k < 5; k++) w[j][k] = c < n16 && (k < 4 || sh) ? s32[4u * c + k] : 0u;
    }
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t c = c0 + 32u * j;
      if (c >= n16) break;
      uint32_t v[4];
#pragma unroll
      for (int k = 0; k < 4; k++) {
        const uint32_t b0 = 16u * c + 4u * k;
        v[k] = __funnelshift_r(w[j][k], w[j][k + 1], sh);
        if (b0 >= bytes) v[k] = 0;
        else if (bytes - b0 < 4u) v[k] &= (1u << (8u * (bytes - b0))) - 1u;
      }
      ((uint4*)out)[c] = make_uint4(v[0], v[1], v[2], v[3]);
    }
  }
}

// copy_section for a section staged without one 2-byte pad word: output bytes [0, gap) are src's first gap
// bytes, [gap, gap + 2) zero, the rest src's bytes from gap on; `bytes` counts the output (the pad
// included). gap = 2 mod 4 (a segment's odd word count), so every output word after the pad is src's bytes
// shifted by 2, one funnel shift of the word pair before it; a chunk loads one u32 more (the one before
// it, never for chunk 0, whose first word lies before any gap). Its own function, not a gap argument of
// copy_section: only the REV kernels call it, and the others' copy-out stays as measured.
__device__ __noinline__ void copy_section_gap(const uint8_t* src, uint32_t bytes, uint8_t* out, uint32_t padBytes,
                                              uint32_t gap) {
  constexpr int K = 4;
  const uint32_t mis = (uint32_t)((uintptr_t)src & 3u), sh = mis * 8u;  // mis is 0 or 2
  const uint32_t* s32 = (const uint32_t*)(src - mis);
  const uint32_t n16 = padBytes / 16u;
  for (uint32_t c0 = lane_id(); c0 < n16; c0 += 32u * K) {
    uint32_t w[K][6];  // s32[4c - 1 .. 4c + 4]
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t c = c0 + 32u * j;
#pragma unroll
      for (int k = 0; k < 6; k++) w[j][k] = c < n16 && (c > 0 || k > 0) ? s32[4u * c + k - 1u] : 0u;
    }
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t c = c0 + 32u * j;
      if (c >= n16) break;
      uint32_t v[4];
#pragma unroll
      for (int k = 0; k < 4; k++) {
        const uint32_t b0 = 16u * c + 4u * k;
        const uint32_t before = __funnelshift_r(w[j][k + 1], w[j][k + 2], sh);
        const uint32_t after = sh ? w[j][k + 1] : __funnelshift_r(w[j][k], w[j][k + 1], 16u);
        v[k] = b0 + 4u <= gap ? before : b0 >= gap + 2u ? after : (before & 0xFFFFu);
        if (b0 >= bytes) v[k] = 0;
        else if (bytes - b0 < 4u) v[k] &= (1u << (8u * (bytes - b0))) - 1u;
      }
      ((uint4*)out)[c] = make_uint4(v[0], v[1], v[2], v[3]);
    }
  }
}

// Finishes a deferred block: resolves its prefix (its predecessors published long ago), then writes its
// directory entry and payload, the symbol section from the stage, the rest from the input.
template <int W, bool REV = false, bool LEAN = false>
__device__ __forceinline__ void finish_deferred(const EncParams& P, const uint8_t* stageB, const BlockPlan& pl) {
  const uint32_t symPad = (uint32_t)uzip_pad16(pl.symSec), remPad = (uint32_t)uzip_pad16(pl.remSec);
  const uint32_t seedSec = LEAN && W > 1 ? plan_seed_bytes(P, pl) : 0u;
  const uint64_t agg = (uint64_t)symPad + seedSec + remPad;
  UZIP_CLK_DECL;
  const uint64_t excl = lb_resolve(P.lookback, pl.b, agg, P.epoch);
  UZIP_CLK(6);
  write_dir_entry(P, pl.b, excl + agg, pl.symMode, pl.remMode);
  uint8_t* out = P.dst + P.payloadOff + excl;
  if (REV && pl.symMode == UZIP_MODE_ANS && (pl.secStart >> 16))
    copy_section_gap(stageB + (pl.secStart & 0xFFFFu), pl.symSec, out, symPad, pl.secStart >> 16);
  else if (pl.symMode == UZIP_MODE_ANS) copy_section(stageB + pl.secStart, pl.symSec, out, symPad);
  else write_plain_sym<W>(P, pl, out, symPad);
  if (seedSec) write_seed_section<W>(P.src + ((uint64_t)pl.b << P.log2Block) * W, pl.m, out + symPad, seedSec);
  if (W > 1 && pl.remMode == UZIP_MODE_ANS)  // staged by compress_block (two-byte types, one segment)
    copy_section(stageB + enc_words_bytes(P.log2Block) + pl.remStart, pl.remSec, out + symPad + seedSec, remPad);
  else if (W > 1)
    write_plain_rem<W, LEAN>(P, pl, stageB, out + symPad + seedSec, remPad);
  __syncwarp();
  UZIP_CLK(7);
#ifdef UZIP_STAGE_CLOCKS
  if (lane_id() == 0) atomicAdd(&g_uzip_stage_clk[15], 1ull);
#endif
}

// The last warp: header (with the checksum of every block), the size words.
__device__ void write_header_final(const EncParams& P, uint64_t total, uint32_t sum) {
  uint32_t w[16];
  const uint64_t bytes = P.count * uzip_dtype_width(P.dtype);
  w[0] = UZIP_MAGIC;
  w[1] = UZIP_VERSION | (P.dtype << 8) | (P.flags << 16) | (P.log2Block << 24);
  w[2] = (uint32_t)P.count;
  w[3] = (uint32_t)(P.count >> 32);
  w[4] = (uint32_t)total;
  w[5] = (uint32_t)(total >> 32);
  w[6] = P.nblocks;
  w[7] = (P.flags & UZIP_FLAG_CHECKSUM) ? uzip_checksum_final(sum, bytes) : 0u;
  uint64_t ro = uzip_rem_offset(P.flags);
  w[8] = (uint32_t)ro;
  w[9] = (uint32_t)(ro >> 32);
  w[10] = (uint32_t)P.dirOff;
  w[11] = (uint32_t)(P.dirOff >> 32);
  w[12] = (uint32_t)P.payloadOff;
  w[13] = (uint32_t)(P.payloadOff >> 32);
  w[14] = uzip_header_check(w);
  w[15] = 0;
  uint4* h = (uint4*)P.dst;
  for (int i = 0; i < 4; i++) h[i] = make_uint4(w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
  if (P.outSizeDev) *(volatile unsigned long long*)P.outSizeDev = total;
  *(volatile unsigned long long*)&P.host->size = total;
  *(volatile int*)&P.host->status = total ? 0 : UZIP_ERR_INTERNAL;
}

// The end of every compress kernel, per warp (csum: the warp's checksum part, in lane 0): the last warp to
// finish writes the header and the size words.
__device__ __forceinline__ void enc_finish(const EncParams& P, GpuSlot* slot, uint32_t csum) {
  if (lane_id() != 0) return;
  const uint32_t warps = gridDim.x * (blockDim.x >> 5);
  const unsigned long long before = end_count_add(slot, csum);
  if ((uint32_t)before == warps - 1u) {
    fence_acq_rel_gpu();
    uint64_t total = P.nblocks ? *(volatile unsigned long long*)&slot->total : P.payloadOff;
    const uint32_t sum = (uint32_t)(before >> 32) + csum;
    // Every ticket below nblocks was taken (and its block finished before its warp got here); if not,
    // the size 0 (no valid stream is that short) tells the caller, instead of a stream with holes. (The warp
    // that wrote the total took ticket nblocks - 1 before its fence: write_dir_entry.)
    if (*(volatile unsigned long long*)&slot->ticket < P.nblocks) total = 0;
    write_header_final(P, total, sum);
  }
}

// compress_kernel's loop for warp pairs (warps 2i and 2i + 1 of a CTA: coder and helper). The coder takes
// the tickets and keeps the deferred blocks as a lone warp does; the helper follows its tickets.
template <int W, int U, bool LEAN = false>
__device__ __forceinline__ void compress_pairs(const EncParams& P, uint8_t* smem, GpuSlot* slot, bool gated,
                                               bool idle) {
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  uint8_t* coderSm = smem + (size_t)(wib & ~1u) * ENC_WARP_BYTES;
  uint8_t* helperSm = coderSm + ENC_WARP_BYTES;
  const Duo duo{(DuoCtl*)helperSm, helperSm + DUO_CTL_BYTES, 1u + 2u * (wib >> 1)};
  volatile DuoCtl* c = duo.c;
  uint32_t csum = 0;
  if (wib & 1u) {
    while (true) {
      bar_sync(duo.ctl, 64);
      const uint64_t t = c->ticket;
      if (t >= P.nblocks) break;
      BlockPlan unused;
      compress_block<W, U, true, false, LEAN>(P, coderSm, (uint16_t*)c->stage, (uint32_t)t, &csum, unused, duo, true);
    }
    enc_finish(P, slot, csum);
    return;
  }
  constexpr uint32_t S = ENC_STAGES;
  uint8_t* stages = P.scratch + (size_t)(blockIdx.x * (blockDim.x >> 5) + wib) * S * P.stageBytes;
  BlockPlan* pend = (BlockPlan*)(coderSm + ENC_PEND);  // as the lone warp's (compress_kernel)
  uint32_t head = 0, npend = 0;
  while (true) {
    const bool go = !idle && gate_open(gated, &slot->active);
    // Every lane's last read of the previous block's tables (the union) comes before any lane zeroes it:
    // racecheck flagged this loop, which has no ticket shuffle before the zeroing as the lone warp's has.
    __syncwarp();
    zero_hists(coderSm);
    unsigned long long t = ~0ull;
    if (go && lane == 0) t = atomicAdd(&slot->ticket, 1ull);
    t = __shfl_sync(FULL_MASK, t, 0);
    const uint32_t cur = (head + npend) % S;
    if (lane == 0) {
      c->ticket = t;
      c->stage = (unsigned long long)(stages + cur * P.stageBytes);
    }
    bar_sync(duo.ctl, 64);
    if (t >= P.nblocks) break;
    compress_block<W, U, true, false, LEAN>(P, coderSm, (uint16_t*)(stages + cur * P.stageBytes), (uint32_t)t, &csum,
                                            pend[cur], duo);
    if (pend[cur].deferred) npend++;
    if (npend == S) {
      finish_deferred<W, false, LEAN>(P, stages + head * P.stageBytes, pend[head]);
      head = (head + 1) % S;
      npend--;
    }
  }
  for (; npend; npend--, head = (head + 1) % S) finish_deferred<W, false, LEAN>(P, stages + head * P.stageBytes, pend[head]);
  enc_finish(P, slot, csum);
}

// U: steps per unrolled group of the ANS loop; MINB: CTAs (of 4 warps) per SM the registers must allow.
// Word stages: a deferred block keeps its stage until it is finished; up to ENC_STAGES - 1 of them wait
// (oldest first) while the warp codes on, so that a block slow to publish its size (an ANS remainder plane
// is sized by an extra ANS pass) does not stall the look-back of every warp behind it: on real weights
// (2% of bf16 blocks) 4 stages compressed 1.27x faster than 2 (bench/results/h200-2026-11-30T1925-codec-v4).
// DUO: warp pairs (compress_pairs). REV: blocks of two segments (2^15 elements) coded last segment first
// (compress_block; its own kernels, so that the others compile as before: within them the same code cost
// 5-8% at 2^14, bench/results/h200-2026-12-04T0430-session28/3-revseg and 4-revseg-outofline).
// LEAN: the kernels of LEAN streams (FORMAT.md "Lean sections"; enc_kernel picks them by the call's flags), so
// that the others compile as before. SYM: the staged symbol plane (compress_block; four-byte types, lone warps,
// not LEAN, stages of enc_stage_bytes(..., true) bytes).
template <int W, int U, int MINB, bool DUO = false, bool REV = false, bool LEAN = false, bool SYM = false>
__global__ void __launch_bounds__(128, MINB) compress_kernel(const EncParams P) {
  extern __shared__ __align__(16) uint8_t smem[];
  const uint32_t lane = lane_id(), wib = threadIdx.x >> 5;
  GpuSlot* slot = &P.slots[P.epoch & 1u];
  clean_next_slot(P.slots, P.epoch);
  const bool gated = sm_gated(P.smLimit);  // this CTA's SM is left to other kernels (see gate_open)
  gate_announce(P.smLimit, gated, &slot->active);
  // Under a perSmCap (UzipGrid: a call of fewer CTAs of work than its budget holds) a permitted SM's first
  // perSmCap CTAs work and its others take no block (idle; its announcement above stands, since the CTAs
  // that claimed before it on its SM are working); a gated CTA first lets the permitted CTAs, which start
  // beside it, announce themselves, so that it takes no ticket a permitted warp would have (with every
  // permitted SM held by other kernels, it still takes the work a microsecond later).
  __shared__ unsigned int ctaRank;
  bool idle = false, claimed = false;
  if (P.perSmCap) {
    if (gated) {
      __nanosleep(1000);
    } else {
      if (threadIdx.x == 0) ctaRank = atomicAdd(&slot->claim[sm_id()], 1u);
      __syncthreads();
      idle = ctaRank >= P.perSmCap;
      claimed = !idle;
    }
  }
  if constexpr (DUO) {
    compress_pairs<W, U, LEAN>(P, smem, slot, gated, idle);
    return;
  }
  uint8_t* sm = smem + (size_t)wib * ENC_WARP_BYTES;
  constexpr uint32_t S = ENC_STAGES;
  uint8_t* stages = P.scratch + (size_t)(blockIdx.x * (blockDim.x >> 5) + wib) * S * P.stageBytes;
  uint32_t csum = 0;
  // Deferred blocks wait in a ring of stages: stages head .. head + npend - 1 (mod S), oldest first; the
  // next block codes into stage head + npend. Their plans: pend[] in shared memory (see ENC_WARP_BYTES).
  BlockPlan* pend = (BlockPlan*)(sm + ENC_PEND);
  uint32_t head = 0, npend = 0;
  // With no SM budget, a CTA's first tickets are taken at once by its thread 0 (its warps are all
  // resident, so the look-back still only waits on running warps): a quarter of a launch's same-address
  // atomics. A call of one round (the grid's warps cover its blocks) then takes no other ticket. bf16
  // split compress 1 GiB 0.913 / 0.912 -> 0.924 / 0.918, 4 GiB 0.926 / 0.925 -> 0.933 / 0.935 TB/s, one-round
  // calls level (bench/results/h200-2026-12-04T0024-session27/6-enc-first). Warps must not take blocks by
  // index here as the decoder's do: a warp whose predecessor's CTA is not yet resident (an SM held by
  // another kernel) would spin in the look-back.
  // A claimed CTA (perSmCap) is on a permitted SM with all its warps resident too, and takes its first
  // tickets at once likewise, so that a small call's blocks fill whole CTAs on separate SMs.
  const uint32_t ctaWarps = blockDim.x >> 5;
  const bool batched = !P.smLimit || claimed;
  const bool oneRound = !P.smLimit && P.nblocks <= (uint64_t)gridDim.x * ctaWarps;
  __shared__ unsigned long long firstT;
  if (batched) {
    if (threadIdx.x == 0) firstT = atomicAdd(&slot->ticket, (unsigned long long)ctaWarps);
    __syncthreads();
  }
  bool fresh = batched;
  while (!idle && gate_open(gated, &slot->active)) {
    UZIP_CLK_DECL;
    unsigned long long t = 0;
    if (fresh) {
      t = firstT + wib;
    } else {
      if (oneRound) break;
      if (lane == 0) t = atomicAdd(&slot->ticket, 1ull);
      t = __shfl_sync(FULL_MASK, t, 0);
    }
    fresh = false;
    UZIP_CLK(8);
    if (t >= P.nblocks) break;
    const uint32_t cur = (head + npend) % S;
    compress_block<W, U, false, REV, LEAN, SYM>(P, sm, (uint16_t*)(stages + cur * P.stageBytes), (uint32_t)t, &csum,
                                                pend[cur]);
    if (pend[cur].deferred) npend++;
    if (npend == S) {  // every stage holds a waiting block: finish the oldest
      finish_deferred<W, REV, LEAN>(P, stages + head * P.stageBytes, pend[head]);
      head = (head + 1) % S;
      npend--;
    }
  }
  for (; npend; npend--, head = (head + 1) % S) finish_deferred<W, REV, LEAN>(P, stages + head * P.stageBytes, pend[head]);
  enc_finish(P, slot, csum);
}

}  // namespace uzip_gpu
