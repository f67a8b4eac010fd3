// Test data shared by the native codec test, fuzzer and bench: a seeded generator and the tensors the
// codec meets (gaussian / uniform / sparse / constant / random bytes / every special bit pattern) in
// every dtype of the format.
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <random>
#include <vector>

#include "uzip_format.h"

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  double gauss() {
    double u = uniform(), v = uniform();
    return sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
  }
};

static inline uint16_t f32_to_bf16(float f) {  // round to nearest even, NaN kept NaN
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x40);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static inline uint16_t f32_to_f16(float f) {
  _Float16 h = (_Float16)f;
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}
// fp8 encodings by rounding down to the format's grid (the codec does not care about exact rounding).
static inline uint8_t f32_to_e4m3(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 31) << 7;
  int e = (int)((u >> 23) & 0xFF) - 127 + 7;
  if (e <= 0) return (uint8_t)sign;
  if (e > 15) return (uint8_t)(sign | 0x7E);
  return (uint8_t)(sign | (e << 3) | ((u >> 20) & 7));
}
static inline uint8_t f32_to_e5m2(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 31) << 7;
  int e = (int)((u >> 23) & 0xFF) - 127 + 15;
  if (e <= 0) return (uint8_t)sign;
  if (e > 30) return (uint8_t)(sign | 0x7B);
  return (uint8_t)(sign | (e << 2) | ((u >> 21) & 3));
}

// Stores a float as the given dtype's bits.
static inline void put_value(std::vector<uint8_t>& out, size_t i, uint32_t dtype, float f) {
  switch (dtype) {
    case UZIP_DTYPE_BF16: { uint16_t v = f32_to_bf16(f); memcpy(&out[2 * i], &v, 2); break; }
    case UZIP_DTYPE_FP16: { uint16_t v = f32_to_f16(f); memcpy(&out[2 * i], &v, 2); break; }
    case UZIP_DTYPE_FP32: memcpy(&out[4 * i], &f, 4); break;
    case UZIP_DTYPE_FP8E4M3: out[i] = f32_to_e4m3(f); break;
    case UZIP_DTYPE_FP8E5M2: out[i] = f32_to_e5m2(f); break;
    default: out[i] = (uint8_t)(int)lrintf(f * 40.0f); break;  // bytes: a small-integer distribution
  }
}

enum DataKind { GAUSS, UNIFORM, SPARSE, CONSTANT, ZEROS, RANDOM, PATTERNS, KIND_COUNT };
static const char* kKindNames[KIND_COUNT] = {"gauss", "uniform", "sparse", "const", "zeros", "random", "patterns"};

// Special bit patterns of each width: zeros, subnormals, infinities, NaN payloads, extremes.
static inline std::vector<uint32_t> special_patterns(uint32_t width) {
  if (width == 1) {
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < 256; i++) v.push_back(i);
    return v;
  }
  if (width == 2)
    return {0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x03FF, 0x7F80, 0xFF80, 0x7C00, 0xFC00, 0x7FC0, 0x7F81,
            0xFFC1, 0x7E01, 0xFFFF, 0x7FFF, 0x7F7F, 0xFF7F, 0x0080, 0x0400, 0x3F80, 0x3C00, 0xBF80, 0x5555};
  return {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x7F800000u,
          0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00001u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7F7FFFFFu,
          0xFF7FFFFFu, 0x00800000u, 0x3F800000u, 0xBF800000u, 0x55555555u, 0xAAAAAAAAu};
}

// Mixed into every make_data seed: 0 (the fixed data sets) unless a test's main draws a fresh one per run
// (test_data_salt_from_env), so that each run checks new data and a failing run can be repeated.
static uint64_t g_test_data_salt = 0;
// Sets the salt from UZIP_TEST_SEED, or a fresh random one; prints it.
static inline void test_data_salt_from_env(const char* tool) {
  const char* e = getenv("UZIP_TEST_SEED");
  g_test_data_salt = e && *e ? strtoull(e, nullptr, 10) : ((uint64_t)std::random_device{}() << 32) ^ std::random_device{}();
  printf("%s: data salt %llu (UZIP_TEST_SEED=%llu repeats this run's data)\n", tool,
         (unsigned long long)g_test_data_salt, (unsigned long long)g_test_data_salt);
}

static inline std::vector<uint8_t> make_data(uint32_t dtype, uint64_t n, DataKind kind, uint64_t seed) {
  const uint32_t w = uzip_dtype_width(dtype);
  std::vector<uint8_t> out(n * w);
  Rng r(seed ^ (g_test_data_salt * 0xD6E8FEB86659FD93ull));
  std::vector<uint32_t> pats = special_patterns(w);
  for (uint64_t i = 0; i < n; i++) {
    switch (kind) {
      case GAUSS: put_value(out, i, dtype, (float)(0.02 * r.gauss())); break;
      case UNIFORM: put_value(out, i, dtype, (float)(2.0 * r.uniform() - 1.0)); break;
      case SPARSE: put_value(out, i, dtype, r.uniform() < 0.9 ? 0.0f : (float)(0.02 * r.gauss())); break;
      case CONSTANT: put_value(out, i, dtype, 0.375f); break;
      case ZEROS: break;
      case RANDOM: {
        uint64_t v = r.next();
        memcpy(&out[i * w], &v, w);
        break;
      }
      case PATTERNS: {
        // Mostly special patterns, some random bits, so that every bit pattern class appears.
        uint32_t v = r.uniform() < 0.7 ? pats[r.next() % pats.size()] : (uint32_t)r.next();
        memcpy(&out[i * w], &v, w);
        break;
      }
      default: break;
    }
  }
  return out;
}
