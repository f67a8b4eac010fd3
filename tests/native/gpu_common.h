// Shared helpers of the native GPU tools (gpu_check.cu, gpu_bench.cu): status checks and data makers.
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <random>
#include <vector>

#include "uzip.h"
#include "uzip_format.h"

#define CK(call)                                                                              \
  do {                                                                                        \
    int st_ = (call);                                                                         \
    if (st_) {                                                                                \
      fprintf(stderr, "FATAL %s:%d %s -> %s: %s\n", __FILE__, __LINE__, #call, uzipStatusName(st_), \
              uzipLastError());                                                               \
      exit(2);                                                                                \
    }                                                                                         \
  } while (0)

static inline uint16_t f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
static inline uint16_t f32_to_f16(float f) {
  // Simple round-to-nearest conversion for normal and subnormal ranges.
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000u;
  int32_t e = (int32_t)((u >> 23) & 0xFF) - 127 + 15;
  uint32_t man = u & 0x7FFFFFu;
  if (e >= 31) return (uint16_t)(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    return (uint16_t)(sign | ((man + (1u << (shift - 1))) >> shift));
  }
  return (uint16_t)(sign | ((uint32_t)e << 10) | ((man + 0x1000u) >> 13));
}
static inline uint8_t f32_to_e4m3(float f) {
  // Coarse: clamp, take exponent/mantissa bits (exactness is irrelevant for a lossless codec test).
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 24) & 0x80u;
  int32_t e = (int32_t)((u >> 23) & 0xFF) - 127 + 7;
  if (e < 0) e = 0;
  if (e > 15) e = 15;
  return (uint8_t)(sign | ((uint32_t)e << 3) | ((u >> 20) & 7u));
}

enum DataKind { D_GAUSS, D_UNIFORM, D_SPARSE, D_CONST, D_RANDOM, D_SPECIAL, D_INTLIKE, D_KINDS };
static const char* kDataNames[] = {"gaussian", "uniform", "sparse", "constant", "random-bytes", "special",
                                   "int-like"};

// Fills count elements of dtype into out (count * width bytes).
// Mixed into every make_data seed: 0 (the fixed data sets, e.g. gpu_bench's) unless a tool draws a fresh one
// per run (data_salt_from_args: gpu_check), so that each run checks new data and a failing run repeats.
static uint64_t g_data_salt = 0;
// --seed N, or UZIP_TEST_SEED, or a fresh random salt; printed.
[[maybe_unused]] static void data_salt_from_args(int argc, char** argv, const char* tool) {
  const char* e = getenv("UZIP_TEST_SEED");
  g_data_salt = e && *e ? strtoull(e, nullptr, 10) : ((uint64_t)std::random_device{}() << 32) ^ std::random_device{}();
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--seed")) g_data_salt = strtoull(argv[i + 1], nullptr, 10);
  printf("%s: data salt %llu (--seed %llu repeats this run's data)\n", tool, (unsigned long long)g_data_salt,
         (unsigned long long)g_data_salt);
}

// Whether environment variable `name` is set to exactly "1" (the tools' switches, e.g. UZIP_CHECK_EITHER).
[[maybe_unused]] static bool env_is_one(const char* name) {
  const char* v = getenv(name);
  return v && !strcmp(v, "1");
}

// A file's bytes (e.g. real weights in a dtype, from scripts/weights_data.ts); false when it cannot be read.
[[maybe_unused]] static bool read_file(const char* path, std::vector<uint8_t>& out) {
  FILE* fp = fopen(path, "rb");
  if (!fp) return false;
  out.clear();
  uint8_t buf[1 << 16];
  for (size_t r; (r = fread(buf, 1, sizeof buf, fp)) > 0;) out.insert(out.end(), buf, buf + r);
  const bool ok = !ferror(fp);
  fclose(fp);
  return ok;
}

static void make_data(std::vector<uint8_t>& out, int dtype, uint64_t count, int kind, uint64_t seed) {
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  out.assign(count * w, 0);
  std::mt19937_64 rng((seed ^ (g_data_salt * 0xD6E8FEB86659FD93ull)) * 7919 + kind * 131 + dtype);
  std::normal_distribution<float> nd(0.f, 1.f);
  std::uniform_real_distribution<float> ud(-1.f, 1.f);
  const float specials[] = {0.f, -0.f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-45f, 65504.f, 3.4e38f, 1.f};
  for (uint64_t i = 0; i < count; i++) {
    float f;
    uint32_t raw = 0;
    bool useRaw = false;
    switch (kind) {
      case D_GAUSS: f = nd(rng) * 0.02f; break;
      case D_UNIFORM: f = ud(rng); break;
      case D_SPARSE: f = (rng() % 10 == 0) ? nd(rng) : 0.f; break;
      case D_CONST: f = 0.375f; break;
      case D_RANDOM: raw = (uint32_t)rng(); useRaw = true; f = 0; break;
      case D_SPECIAL:
        if (rng() % 3 == 0) { raw = (uint32_t)rng(); useRaw = true; }
        f = specials[rng() % 10];
        break;
      default: f = (float)((int)(rng() % 9) - 4); break;  // INTLIKE: few values, mostly zero mantissas
    }
    uint8_t* p = &out[i * w];
    if (dtype == UZIP_DTYPE_BF16) {
      uint16_t v = useRaw ? (uint16_t)raw : f32_to_bf16(f);
      memcpy(p, &v, 2);
    } else if (dtype == UZIP_DTYPE_FP16) {
      uint16_t v = useRaw ? (uint16_t)raw : f32_to_f16(f);
      memcpy(p, &v, 2);
    } else if (dtype == UZIP_DTYPE_FP32) {
      if (useRaw) memcpy(p, &raw, 4);
      else memcpy(p, &f, 4);
    } else if (dtype == UZIP_DTYPE_BYTES) {
      *p = useRaw ? (uint8_t)raw : (uint8_t)(int)(f * 20);
    } else {
      *p = useRaw ? (uint8_t)raw : f32_to_e4m3(f);
    }
  }
}
