// Element arithmetic of the collectives, shared by the CPU backend and the CUDA kernels so that both
// compute the same bits by construction (plain integer and IEEE float operations, marked
// __host__ __device__).
//
// Semantics (docs/COLLECTIVES.md explains why):
// - Every op on bf16 / fp16 / fp8 is computed in fp32 from the exactly widened operands and rounded
//   once to the dtype, round to nearest even. fp32 has at least 2p + 2 bits for every narrow type here,
//   so for sum and prod this equals the correctly rounded result (what NCCL's native bf16/fp16 add
//   and multiply give for two operands).
// - Overflow: bf16, fp16, e5m2 round to ±Inf; e4m3 (no Inf) saturates to ±448, Inf included.
// - A NaN result is the canonical NaN of the dtype: all exponent and mantissa bits set, sign clear
//   (0x7FFFFFFF, 0x7FFF, 0x7F), the pattern NVIDIA hardware produces. With that, sum and prod are
//   commutative bit for bit, NaNs included.
// - max / min ignore a NaN operand (IEEE maxNum/minNum, like fmaxf and NCCL); both NaN gives the
//   canonical NaN; +0 is greater than -0. They are commutative bit for bit.
// - avg is NCCL's premultiplied sum with s = 1/n rounded to the dtype. The rank that starts a fold sends
//   its contribution times s, rounded to the dtype; every later rank folds its own element x into the
//   partial p it received as x * s + p rounded once (NCCL's kernels contract the pre-multiply and the add
//   into one fused multiply-add for bf16, fp16 and fp32; measured on 2x H200: fp16 subnormal halvings
//   differ otherwise). Computed as double x * s (exact) + p, rounded to fp32, then to the dtype: with s =
//   1/2 that is the fused result. fp8 keeps a rounded product (NCCL converts through half there). On two
//   ranks this is NCCL's ncclAvg bit for bit.
#pragma once

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#include <cuda_fp16.h>
#define COLL_HD __host__ __device__ __forceinline__
#else
#define COLL_HD static inline
#endif

// Reduction ops, numbered like ncclRedOp_t.
enum uzip_red_op { UZIP_OP_SUM = 0, UZIP_OP_PROD = 1, UZIP_OP_MAX = 2, UZIP_OP_MIN = 3, UZIP_OP_AVG = 4,
                   UZIP_OP_COUNT = 5 };

COLL_HD uint32_t coll_f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
COLL_HD float coll_u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
COLL_HD int coll_isnan(float f) { return (coll_f2u(f) & 0x7FFFFFFFu) > 0x7F800000u; }

// Widening of a narrow float (M mantissa bits, E exponent bits, bias) to fp32: exact for every code.
// ieeeTop: the all-ones exponent means Inf/NaN (fp16, e5m2); for e4m3 only S.1111.111 is NaN.
COLL_HD float coll_mini_to_f32(uint32_t code, uint32_t E, uint32_t M, int bias, int ieeeTop) {
  uint32_t sign = (code >> (E + M)) & 1u, e = (code >> M) & ((1u << E) - 1u), m = code & ((1u << M) - 1u);
  float v;
  if (e == (1u << E) - 1u && (ieeeTop || m == (1u << M) - 1u)) {
    v = (ieeeTop && m == 0) ? coll_u2f(0x7F800000u) : coll_u2f(0x7FC00000u);
  } else if (e == 0) {
    // m * 2^(1 - bias - M), exact: m has at most 3..10 bits and the scale is a power of two.
    v = (float)m * coll_u2f((uint32_t)(127 + 1 - bias - (int)M) << 23);
  } else {
    v = coll_u2f(((uint32_t)((int)e - bias + 127) << 23) | (m << (23u - M)));
  }
  return sign ? -v : v;
}

// Narrowing of a non-NaN fp32 to a narrow float, round to nearest even; returns the code with the sign.
// maxCode: the largest finite code (sign clear); infCode: the code overflow goes to (Inf, or maxCode to
// saturate).
COLL_HD uint32_t coll_f32_to_mini(float f, uint32_t E, uint32_t M, int bias, uint32_t maxCode,
                                  uint32_t infCode) {
  uint32_t u = coll_f2u(f), sign = (u >> 31) << (E + M), a = u & 0x7FFFFFFFu;
  if (a == 0x7F800000u) return sign | infCode;
  int e = (int)(a >> 23);
  if (e == 0) return sign;  // fp32 subnormals are far below half the smallest fp16/fp8 subnormal
  uint64_t m = (a & 0x7FFFFFu) | 0x800000u;  // value = m * 2^(e - 150)
  int te = e - 127 + bias;
  int shift = te >= 1 ? (int)(23u - M) : (int)(23u - M) + (1 - te);
  if (shift > 25) return sign;  // below half the smallest subnormal
  uint64_t q = m >> shift, rem = m & (((uint64_t)1 << shift) - 1u), half = (uint64_t)1 << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) q++;
  uint64_t code = te >= 1 ? ((uint64_t)te << M) + q - ((uint64_t)1 << M) : q;
  if (code > maxCode) code = infCode;
  return sign | (uint32_t)code;
}

// The dtype ids of uzip_format.h (repeated so that this header stands alone).
#define COLL_BF16 1
#define COLL_FP16 2
#define COLL_FP32 3
#define COLL_E4M3 4
#define COLL_E5M2 5

// fp16 on the device goes through the hardware conversions (cvt.f32.f16, cvt.rn.f16.f32): the same bits
// as the code here for every non-NaN value (exact widening; round to nearest even, overflow to Inf,
// fp32 subnormals to ±0), and NaN never reaches the narrowing (coll_narrow makes it canonical first) nor
// matters in a widened operand (every op gives NaN or, for max / min, the other operand). gpu_check's
// backend-reduce cases compare the two, special values included. The generic code cost the fp16 reduce
// kernel 2.7x the time of bf16's (bench/results/h200-2026-12-01T0645-session9/6-reduce-kernel).
COLL_HD float coll_widen(uint32_t bits, int dtype) {
  switch (dtype) {
    case COLL_BF16: return coll_u2f(bits << 16);
#ifdef __CUDA_ARCH__
    case COLL_FP16: return __half2float(__ushort_as_half((unsigned short)bits));
#else
    case COLL_FP16: return coll_mini_to_f32(bits, 5, 10, 15, 1);
#endif
    case COLL_FP32: return coll_u2f(bits);
    case COLL_E4M3: return coll_mini_to_f32(bits, 4, 3, 7, 0);
    default: return coll_mini_to_f32(bits, 5, 2, 15, 1);  // e5m2
  }
}

// Rounds once to the dtype; NaN becomes the canonical NaN.
COLL_HD uint32_t coll_narrow(float f, int dtype) {
  if (coll_isnan(f))
    return dtype == COLL_FP32 ? 0x7FFFFFFFu : (dtype == COLL_BF16 || dtype == COLL_FP16) ? 0x7FFFu : 0x7Fu;
  switch (dtype) {
    case COLL_BF16: {
      uint32_t u = coll_f2u(f);
      return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;  // RNE; overflow carries into Inf correctly
    }
#ifdef __CUDA_ARCH__
    case COLL_FP16: return __half_as_ushort(__float2half_rn(f));  // see coll_widen
#else
    case COLL_FP16: return coll_f32_to_mini(f, 5, 10, 15, 0x7BFFu, 0x7C00u);
#endif
    case COLL_FP32: return coll_f2u(f);
    case COLL_E4M3: return coll_f32_to_mini(f, 4, 3, 7, 0x7Eu, 0x7Eu);
    default: return coll_f32_to_mini(f, 5, 2, 15, 0x7Bu, 0x7Cu);
  }
}

// maxNum / minNum with +0 > -0, symmetric in a and b.
COLL_HD float coll_max(float a, float b) {
  if (coll_isnan(a)) return b;
  if (coll_isnan(b)) return a;
  if (a == b) return (coll_f2u(a) >> 31) ? b : a;
  return a > b ? a : b;
}
COLL_HD float coll_min(float a, float b) {
  if (coll_isnan(a)) return b;
  if (coll_isnan(b)) return a;
  if (a == b) return (coll_f2u(a) >> 31) ? a : b;
  return a < b ? a : b;
}

// Internal op of avg folds (bf16, fp16, fp32): COLL_OP_PREMUL_BASE + n, see coll_reduce_elem_s.
#define COLL_OP_PREMUL_BASE 64

// The scale an op folds with: 1/n rounded to the dtype for COLL_OP_PREMUL_BASE + n, else 1. Loops compute
// it once and call coll_reduce_elem_s.
COLL_HD float coll_op_scale(int dtype, int op) {
  return op >= COLL_OP_PREMUL_BASE ? coll_widen(coll_narrow(1.0f / (float)(op - COLL_OP_PREMUL_BASE), dtype), dtype)
                                   : 1.0f;
}

// a op b on codes of `dtype`, s = coll_op_scale(dtype, op). a is the partial received, b this rank's own
// element. AVG (fp8) reduces like SUM over contributions that coll_premul_avg has scaled;
// COLL_OP_PREMUL_BASE + n folds the own, unscaled element in as b * s + a with one rounding to fp32 (see
// the avg note above).
COLL_HD uint32_t coll_reduce_elem_s(uint32_t a, uint32_t b, int dtype, int op, float s) {
  float x = coll_widen(a, dtype), y = coll_widen(b, dtype), r;
  if (op >= COLL_OP_PREMUL_BASE) return coll_narrow((float)((double)y * (double)s + (double)x), dtype);
  switch (op) {
    case UZIP_OP_PROD: r = x * y; break;
    case UZIP_OP_MAX: r = coll_max(x, y); break;
    case UZIP_OP_MIN: r = coll_min(x, y); break;
    default: r = x + y; break;
  }
  return coll_narrow(r, dtype);
}

// x * (1/nranks), NCCL's pre-multiplication for avg: the scalar is 1/n rounded to the dtype and the
// product (exact in fp32 for the narrow types) is rounded once to the dtype.
COLL_HD uint32_t coll_premul_avg(uint32_t x, int dtype, int nranks) {
  const float s = coll_widen(coll_narrow(1.0f / (float)nranks, dtype), dtype);
  return coll_narrow(coll_widen(x, dtype) * s, dtype);
}

COLL_HD int coll_dtype_reducible(int dtype) { return dtype >= COLL_BF16 && dtype <= COLL_E5M2; }
COLL_HD uint32_t coll_load(const void* p, uint64_t i, uint32_t width) {
  const unsigned char* b = (const unsigned char*)p + i * width;
  return width == 4 ? *(const uint32_t*)b : width == 2 ? *(const uint16_t*)b : *b;
}
COLL_HD void coll_store(void* p, uint64_t i, uint32_t width, uint32_t v) {
  unsigned char* b = (unsigned char*)p + i * width;
  if (width == 4) *(uint32_t*)b = v;
  else if (width == 2) *(uint16_t*)b = (uint16_t)v;
  else *b = (unsigned char)v;
}

// The op that a loop instantiated per op runs for `op` (coll_reduce_elem_s gives the same bits): prod, max
// and min as they are; every avg fold (COLL_OP_PREMUL_BASE + n) as COLL_OP_PREMUL_BASE + 1, with the scale
// from coll_op_scale(dtype, op); avg and sum as sum.
COLL_HD int coll_op_class(int op) {
  if (op >= COLL_OP_PREMUL_BASE) return COLL_OP_PREMUL_BASE + 1;
  return op == UZIP_OP_PROD || op == UZIP_OP_MAX || op == UZIP_OP_MIN ? op : UZIP_OP_SUM;
}

// coll_reduce_elem_s on the 4 / W elements packed in a 32-bit word (little-endian), with dtype DT and op
// OP (coll_op_class) fixed at compile time, so that a loop compiles to the few instructions of one case:
// with both read at run time, every case is inlined per element, several times slower.
template <int W, int DT, int OP>
COLL_HD uint32_t coll_reduce_word(uint32_t a, uint32_t b, float s) {
  if (W == 4) return coll_reduce_elem_s(a, b, DT, OP, s);
  uint32_t r = 0;
  for (int i = 0; i < 4 / W; i++) {
    const uint32_t sh = 8u * W * i, m = W == 2 ? 0xFFFFu : 0xFFu;
    r |= (coll_reduce_elem_s((a >> sh) & m, (b >> sh) & m, DT, OP, s) & m) << sh;
  }
  return r;
}
