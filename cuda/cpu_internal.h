// Internal pieces of the CPU reference codec shared by cpu_encode.cc, cpu_decode.cc and inspect.cc:
// little-endian access, the parsed stream header, per-thread scratch and the rANS plane coders.
// Nothing here is exported from libuzip.so (the library is built with -fvisibility=hidden).
#pragma once

#include <stdint.h>
#include <string.h>

#include "codec_args.h"
#include "status.h"
#include "uzip.h"
#include "uzip_format.h"

// x86-64 builds get AVX2 paths, chosen at run time (simd_level).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define UZIP_CPU_X86 1
#else
#define UZIP_CPU_X86 0
#endif

namespace uzip_cpu {

// 1 when the rANS coders take their AVX2 paths (the CPU has AVX2 and $UZIP_CPU_SIMD is not "0"), else 0.
// Both paths give the same bytes, the same decoded data and the same errors.
int simd_level();
// Tests: 0 forces the scalar paths, 1 the AVX2 ones (only where the CPU has AVX2), -1 decides again.
void force_simd_level(int level);

// Unaligned little-endian loads and stores (the stream has no alignment guarantee in memory; memcpy
// compiles to a plain move on x86-64).
static inline uint16_t ld16(const uint8_t* p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t ld32(const uint8_t* p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const uint8_t* p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st16(uint8_t* p, uint16_t v) { memcpy(p, &v, 2); }
static inline void st32(uint8_t* p, uint32_t v) { memcpy(p, &v, 4); }
static inline void st64(uint8_t* p, uint64_t v) { memcpy(p, &v, 8); }

// True when bytes [p, p + n) are all zero (padding checks).
static inline bool all_zero(const uint8_t* p, uint64_t n) {
  uint8_t acc = 0;
  for (uint64_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

// A validated stream header with the layout numbers derived from it.
struct Header {
  uint32_t dtype, flags, log2_block, width, rem_width;
  uint32_t stored_checksum;
  uint64_t count, raw_bytes, total, nblocks;
  uint64_t rem_offset, dir_offset, payload_offset;
};

// Parses and validates the 64-byte header against src_bytes (everything FORMAT.md lists up to
// "total <= available bytes"). Sets the last error and returns its status on failure.
int read_header(const uint8_t* src, uint64_t src_bytes, Header* h);

// Writes the header (check word included) for the given fields.
void write_header(uint8_t* dst, const Header& h, uint32_t checksum);

// uzip_checksum of n bytes (the data checksum of FORMAT.md).
uint32_t data_checksum(const uint8_t* p, uint64_t n);

// Per-thread scratch, allocated once per thread on first use and sized for the largest block.
struct Scratch {
  uint8_t* sym;   // 2^16 symbol bytes
  uint8_t* rem;   // 2^16 * 3 remainder bytes
  uint8_t* ans;   // one ANS section being built (the worst case of a 2^16 * 3 byte plane)
  uint64_t ans_capacity;
};
// Returns nullptr when the allocation failed (the caller reports UZIP_ERR_OUT_OF_MEMORY).
Scratch* scratch();

// Worst-case size of an ANS section of a plane of n bytes (every symbol emitting one word).
static inline uint64_t ans_section_bound(uint64_t n) {
  return uzip_ans_table_bytes(256) + (uint64_t)uzip_ans_nseg(n) * (UZIP_ANS_SEG_HEADER_BYTES + 4u) + 2u * n;
}

// Histogram of n bytes into counts[256] (four sub-histograms so that runs of equal bytes do not stall
// on one counter).
void histogram(const uint8_t* p, uint64_t n, uint32_t* counts);

// What a LEAN stream changes in an ANS section (FORMAT.md "Lean sections"): its table's form, and for the
// symbol plane of a split-layout stream of dtype seedDtype, the seeded segments' lane states.
struct AnsLean {
  bool tables = false;
  uint32_t seedDtype = 0;  // 0: no segment is seeded
};
// The most seeds a plane can have: 32 lanes of each of the 4 segments of a 2^16-element block.
#define UZIP_CPU_MAX_SEEDS (32u * (1u << UZIP_LOG2_BLOCK_MAX) / UZIP_ANS_SEG_SYMS)

// Codes a plane of n >= 1 bytes whose normalized frequencies are freqs (at least two symbols present)
// into out (capacity ans_section_bound(n)). Returns the unpadded section size. seeds: 32 a segment (lane l
// of segment sg at 32 sg + l, each under 2^uzip_seed_bits), read for the seeded segments only.
uint64_t ans_encode_plane(const uint8_t* plane, uint64_t n, const uint32_t* freqs, uint8_t* out,
                          const AnsLean& lean = AnsLean{}, const uint32_t* seeds = nullptr);

// Validates the ANS section at p (avail bytes up to the end of the block payload) of a plane of n
// bytes and, when out is non-null, decodes it into out[0..n). *used receives the unpadded section size.
// `what` names the plane ("symbol" / "remainder") for messages, block the block index. With out, the
// seeded segments' seeds (the end states less 2^k) go to seeds as ans_encode_plane takes them.
int ans_decode_section(const uint8_t* p, uint64_t avail, uint64_t n, uint8_t* out, uint64_t* used,
                       const char* what, uint64_t block, const AnsLean& lean = AnsLean{},
                       uint32_t* seeds = nullptr);

// Cumulative starts of 256 frequencies (exclusive prefix in symbol order).
static inline void cumulate_freqs(const uint32_t* freqs, uint32_t* cum) {
  uint32_t c = 0;
  for (uint32_t s = 0; s < 256u; s++) cum[s] = c, c += freqs[s];
}

// Lane streams (cpu_lanes.cc). lanes_encode_plane chooses the symbol plane's mode (CONST, RAW or LANES)
// and, for LANES, writes the section into out (room for table + states + counts + m bytes) and returns its
// unpadded size; for CONST out[0] is the value (size 1), for RAW it returns m and writes nothing.
uint64_t lanes_encode_plane(const uint8_t* sym, uint32_t m, uint32_t width, uint32_t log2_block, uint8_t* out,
                            uint32_t* mode);
// Validates the LANES section at p (avail bytes left in the payload) of a block of m symbols and, when out
// is non-null, decodes the symbols into out[0..m). *used receives the unpadded section size.
int lanes_decode_section(const uint8_t* p, uint64_t avail, uint32_t m, uint32_t width, uint32_t log2_block,
                         uint8_t* out, uint64_t* used, uint64_t block);

// Pair coding (cpu_pairs.cc). pairs_encode_plane codes the symbol plane of a block of m elements that is not
// CONST (counts: its symbol histogram) into out (room for ans_section_bound(m)); returns the unpadded size
// with *mode PAIRS, or m with *mode RAW when the section would not be smaller than the plane.
uint64_t pairs_encode_plane(const uint8_t* sym, uint32_t m, const uint32_t* counts, uint8_t* out, uint32_t* mode);
// Validates the PAIRS section at p (avail bytes left in the payload) of a block of m symbols and, when out is
// non-null, decodes the symbols into out[0..m). *used receives the unpadded section size.
int pairs_decode_section(const uint8_t* p, uint64_t avail, uint32_t m, uint8_t* out, uint64_t* used, uint64_t block);

// Walks a whole stream: validates everything and, when dst is non-null, decodes into dst. When info is
// non-null it is filled (inspect). dst_capacity is only checked when dst is non-null. threads: as
// cpu_threads takes it (cpu_threads.h), for a decode; a walk without dst runs on the calling thread.
int walk_stream(const uint8_t* src, uint64_t src_bytes, uint8_t* dst, uint64_t dst_capacity,
                uzip_info* info, int32_t threads = 1);

}  // namespace uzip_cpu
