// Native test of nccl/coll_reduce.h's per-instantiation helpers, on the CPU: coll_reduce_word<W, DT,
// coll_op_class(op)>, which the GPU reduce kernels (coll_reduce_gpu.cuh) and the fused decode-reduce run,
// must give the bits of coll_reduce_elem_s(op) element by element, for every dtype and op (avg folds
// included), on random words and on words built from special codes (zeros, subnormals, Inf, NaN, the
// largest finite). The device's fp16 conversions are gpu_check's part. Built and run by
// scripts/test_native.sh.
#include <stdint.h>
#include <stdio.h>

#include <random>
#include <vector>

#include "coll_reduce.h"

static int g_fail = 0;
static uint64_t g_checks = 0;

template <int W, int DT, int OP>
static uint32_t word_op(uint32_t a, uint32_t b, float s) {
  return coll_reduce_word<W, DT, OP>(a, b, s);
}

// coll_reduce_word with the class of `op`, dispatched at run time the way the kernels' launchers do.
template <int W, int DT>
static uint32_t word_for(int op, uint32_t a, uint32_t b, float s) {
  switch (coll_op_class(op)) {
    case UZIP_OP_PROD: return word_op<W, DT, UZIP_OP_PROD>(a, b, s);
    case UZIP_OP_MAX: return word_op<W, DT, UZIP_OP_MAX>(a, b, s);
    case UZIP_OP_MIN: return word_op<W, DT, UZIP_OP_MIN>(a, b, s);
    case UZIP_OP_SUM: return word_op<W, DT, UZIP_OP_SUM>(a, b, s);
    default: return word_op<W, DT, COLL_OP_PREMUL_BASE + 1>(a, b, s);
  }
}

template <int W, int DT>
static void check_dtype(const char* name, const std::vector<uint32_t>& codes) {
  const bool wide = DT == COLL_BF16 || DT == COLL_FP16 || DT == COLL_FP32;
  std::vector<int> ops = {UZIP_OP_SUM, UZIP_OP_PROD, UZIP_OP_MAX, UZIP_OP_MIN, UZIP_OP_AVG};
  if (wide) ops.insert(ops.end(), {COLL_OP_PREMUL_BASE + 2, COLL_OP_PREMUL_BASE + 3, COLL_OP_PREMUL_BASE + 7});
  std::mt19937_64 rng(1234 + DT);
  const uint32_t mask = W == 4 ? 0xFFFFFFFFu : W == 2 ? 0xFFFFu : 0xFFu;
  auto word_from_codes = [&](void) {  // 4 / W codes from the special list, or random bits
    uint32_t w = 0;
    for (int i = 0; i < 4 / W; i++) {
      const uint32_t c = rng() % 3 ? codes[rng() % codes.size()] : (uint32_t)rng() & mask;
      w |= (W == 4 ? c : (c & mask) << (8 * W * i));
    }
    return w;
  };
  for (int op : ops) {
    const float s = coll_op_scale(DT, op);
    int bad = 0;
    for (int t = 0; t < 200000; t++) {
      const uint32_t a = t & 1 ? (uint32_t)rng() : word_from_codes(), b = t & 2 ? (uint32_t)rng() : word_from_codes();
      const uint32_t got = word_for<W, DT>(op, a, b, s);
      uint32_t want = 0;
      for (int i = 0; i < 4 / W; i++) {
        const uint32_t sh = 8u * W * i;
        want |= (coll_reduce_elem_s((a >> sh) & mask, (b >> sh) & mask, DT, op, s) & mask) << sh;
      }
      g_checks++;
      if (got != want && bad++ < 3)
        printf("FAIL %s op %d: a %08x b %08x -> word %08x, elements %08x\n", name, op, a, b, got, want);
    }
    if (bad) g_fail++;
  }
}

int main() {
  // Special codes per width: +-0, smallest subnormal, largest subnormal, smallest normal, 1, largest
  // finite, Inf / saturation code, NaNs.
  const std::vector<uint32_t> c32 = {0u, 0x80000000u, 1u, 0x007FFFFFu, 0x00800000u, 0x3F800000u, 0x7F7FFFFFu,
                                     0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFFFFFFFu, 0x3F000000u};
  const std::vector<uint32_t> bf16 = {0u, 0x8000u, 1u, 0x007Fu, 0x0080u, 0x3F80u, 0x7F7Fu, 0x7F80u, 0xFF80u, 0x7FC0u,
                                      0xFFFFu, 0x3F00u};
  const std::vector<uint32_t> fp16 = {0u, 0x8000u, 1u, 0x03FFu, 0x0400u, 0x3C00u, 0x7BFFu, 0x7C00u, 0xFC00u, 0x7E00u,
                                      0xFFFFu, 0x3800u};
  const std::vector<uint32_t> e4m3 = {0u, 0x80u, 1u, 7u, 8u, 0x38u, 0x7Eu, 0xFEu, 0x7Fu, 0xFFu, 0x30u};
  const std::vector<uint32_t> e5m2 = {0u, 0x80u, 1u, 3u, 4u, 0x3Cu, 0x7Bu, 0x7Cu, 0xFCu, 0x7Eu, 0xFFu, 0x38u};
  check_dtype<2, COLL_BF16>("bf16", bf16);
  check_dtype<2, COLL_FP16>("fp16", fp16);
  check_dtype<4, COLL_FP32>("fp32", c32);
  check_dtype<1, COLL_E4M3>("e4m3", e4m3);
  check_dtype<1, COLL_E5M2>("e5m2", e5m2);
  // The op classes themselves.
  const bool classes = coll_op_class(UZIP_OP_AVG) == UZIP_OP_SUM && coll_op_class(UZIP_OP_SUM) == UZIP_OP_SUM &&
                       coll_op_class(UZIP_OP_PROD) == UZIP_OP_PROD && coll_op_class(UZIP_OP_MAX) == UZIP_OP_MAX &&
                       coll_op_class(UZIP_OP_MIN) == UZIP_OP_MIN &&
                       coll_op_class(COLL_OP_PREMUL_BASE + 5) == COLL_OP_PREMUL_BASE + 1;
  if (!classes) {
    printf("FAIL coll_op_class\n");
    g_fail++;
  }
  printf("coll_reduce_test: %llu word checks, %d failures\n", (unsigned long long)g_checks, g_fail);
  return g_fail ? 1 : 0;
}
