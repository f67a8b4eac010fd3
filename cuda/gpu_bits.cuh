// Bit arrangements of two-byte elements (bf16, fp16) shared by the GPU encoders and decoders: a two-byte
// element is rotated left by one bit inside its 16 bits, its high byte is the symbol and its low byte the
// remainder (uzip_format.h). Each helper is one three-input select (lop3) where the plain C++ form compiled
// to masks and an or per half.
#pragma once

#include <stdint.h>

namespace uzip_gpu {

// Each 16-bit half of a rotated right by one bit (the inverse of the split's rotation): a >> 1 where the
// mask is set, a << 15 elsewhere. Three instructions a word; written as two masks and an or, ptxas spent
// four.
__device__ __forceinline__ uint32_t rotr1_halves(uint32_t a) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, 0x7FFF7FFF, 0xE4;" : "=r"(d) : "r"(a >> 1), "r"(a << 15));
  return d;
}

// The remainders of four elements (words a = [e1 e0], b = [e3 e2]) as four bytes, e_k's in byte k: an
// element's remainder is its low byte shifted left by one with its sign bit below. Gathering the low and
// the high bytes first makes that one shift each and one select (bits 1-7 of each byte from lo << 1, bit
// 0 from hi >> 7) for all four: five instructions where rotating each word and packing took nine.
__device__ __forceinline__ uint32_t rem_bytes4(uint32_t a, uint32_t b) {
  const uint32_t lo = __byte_perm(a, b, 0x6420), hi = __byte_perm(a, b, 0x7531);
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, 0xFEFEFEFE, 0xE4;" : "=r"(d) : "r"(lo << 1), "r"(hi >> 7));
  return d;
}

// base + (v >> SHIFT) for v whose low SHIFT bits are zero (a masked field), as one multiply-high-add:
// v * 2^(32 - SHIFT) has v >> SHIFT as its high word. A field's scaled offset plus a shared-memory base
// then costs the mask and this, where a shift, a mask and an add took three.
template <int SHIFT>
__device__ __forceinline__ uint32_t add_shr(uint32_t base, uint32_t v) {
  static_assert(SHIFT > 0 && SHIFT < 32, "a shift of 1..31");
  uint32_t d;
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(v), "n"(1u << (32 - SHIFT)), "r"(base));
  return d;
}

}  // namespace uzip_gpu
