// Native test of the GPU decoder's kernel choice per call (uzip_dec_kernel, cuda/dec_variant.h), on the CPU:
// decode-reduce and a forced variant win over everything; without a dtype the one-round kernel up to one round
// of 8 KiB blocks, the default past it; fp32 the wide kernel only on at least half the chip; plain bytes the
// default; one- and two-byte types the one-round kernel up to one round of its warps, the compact layout from
// two rounds of the default kernel's warps, at any SM budget; the lean decoder's compact layout
// (uzip_lean_dec_compact) from two rounds of the lean kernel's warps, or as forced; large fp32 decodes apart from
// the lean path (uzip_dec_wide_apart) from 1 GiB, or as forced. gpu_check runs every kernel
// on a GPU; this pins the boundaries, which no GPU run hits exactly. Built and run by scripts/test_native.sh.
#include <stdint.h>
#include <stdio.h>

#include <initializer_list>

#include "dec_variant.h"

static int g_fail = 0, g_checks = 0;

// warps: the one-round kernel's resident warps under the budget (4 CTAs of 4 warps per SM); the default
// kernel holds 5 CTAs of 4 warps per SM.
static void expect(const char* what, bool fused, int forced, int dtype, uint64_t cap, uint32_t budget, uint64_t warps,
                   int want) {
  g_checks++;
  const int got = uzip_dec_kernel(fused, forced, dtype, cap, budget, 132, warps, 20ull * budget);
  if (got != want) {
    printf("FAIL %s: fused %d, forced %d, dtype %d, %llu bytes, %u SMs, %llu warps: kernel %d, want %d\n", what,
           (int)fused, forced, dtype, (unsigned long long)cap, budget, (unsigned long long)warps, got, want);
    g_fail++;
  }
}

// The lean decoder's layout (uzip_lean_dec_compact): warps are the lean kernel's resident warps.
static void expect_lean(const char* what, int forced, uint64_t cap, uint64_t warps, bool want) {
  g_checks++;
  const bool got = uzip_lean_dec_compact(forced, cap, warps);
  if (got != want) {
    printf("FAIL %s: forced %d, %llu bytes, %llu warps: compact %d, want %d\n", what, forced, (unsigned long long)cap,
           (unsigned long long)warps, (int)got, (int)want);
    g_fail++;
  }
}

// Large fp32 decodes apart from the lean path (uzip_dec_wide_apart): from 1 GiB of destination, or as forced.
static void expect_apart(const char* what, int forced, uint64_t cap, bool want) {
  g_checks++;
  const bool got = uzip_dec_wide_apart(forced, cap);
  if (got != want) {
    printf("FAIL %s: forced %d, %llu bytes: apart %d, want %d\n", what, forced, (unsigned long long)cap, (int)got,
           (int)want);
    g_fail++;
  }
}

int main() {
  // A full H200: 132 SMs, 4 CTAs of 4 warps of the one-round kernel per SM (2112 warps).
  const uint64_t warps = 132 * 16;
  const uint64_t MiB = 1ull << 20;
  for (int d = -1; d < UZIP_DTYPE_COUNT; d++) {
    expect("fused", true, 4, d, 1024 * MiB, 132, warps, UZIP_DEC_FUSED);
    expect("forced", false, 0, d, 1024 * MiB, 132, warps, UZIP_DEC_FORCED);
    expect("forced", false, 4, d, 1 * MiB, 16, warps, UZIP_DEC_FORCED);
  }
  expect("no dtype", false, -1, -1, 1024 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  // Without a dtype, blocks are bounded by the smallest default block (8 KiB): 2112 warps hold 16.5 MiB.
  expect("no dtype 1 MiB", false, -1, -1, 1 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("no dtype one round", false, -1, -1, warps << 13, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("no dtype past a round", false, -1, -1, (warps + 1) << 13, 132, warps, UZIP_DEC_DEFAULT);
  expect("no dtype 1 MiB, 8 SMs", false, -1, -1, 1 * MiB, 8, 8 * 16, UZIP_DEC_ONE_ROUND);
  expect("no dtype 2 MiB, 8 SMs", false, -1, -1, 2 * MiB, 8, 8 * 16, UZIP_DEC_DEFAULT);
  expect("bad dtype", false, -1, UZIP_DTYPE_COUNT, 1024 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  expect("fp32 full chip", false, -1, UZIP_DTYPE_FP32, 1024 * MiB, 132, warps, UZIP_DEC_WIDE);
  expect("fp32 half chip", false, -1, UZIP_DTYPE_FP32, 1024 * MiB, 66, warps / 2, UZIP_DEC_WIDE);
  expect("fp32 under half", false, -1, UZIP_DTYPE_FP32, 1024 * MiB, 65, warps * 65 / 132, UZIP_DEC_DEFAULT);
  expect("bytes", false, -1, UZIP_DTYPE_BYTES, 1024 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  // bf16 above 16 MiB: 2^14-element blocks of 32 KiB, so one round of 2112 warps is 66 MiB.
  const uint64_t block = 32 * 1024, round = warps * block;
  const int bf16 = UZIP_DTYPE_BF16;
  expect("bf16 a third of a round", false, -1, bf16, round / 3 + 16 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("bf16 one round", false, -1, bf16, round, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("bf16 one block past a round", false, -1, bf16, round + block, 132, warps, UZIP_DEC_DEFAULT);
  // Two rounds of the default kernel's 2640 warps are 165 MiB of bf16.
  const uint64_t two = 2 * 2640 * block;
  expect("bf16 128 MiB", false, -1, bf16, 128 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  expect("bf16 a block under two default rounds", false, -1, bf16, two - block, 132, warps, UZIP_DEC_DEFAULT);
  expect("bf16 two default rounds", false, -1, bf16, two - block + 2, 132, warps, UZIP_DEC_COMPACT);
  expect("bf16 256 MiB", false, -1, bf16, 256 * MiB, 132, warps, UZIP_DEC_COMPACT);
  expect("bf16 1 GiB", false, -1, bf16, 1024 * MiB, 132, warps, UZIP_DEC_COMPACT);
  expect("fp16 1 GiB", false, -1, UZIP_DTYPE_FP16, 1024 * MiB, 132, warps, UZIP_DEC_COMPACT);
  expect("fp16 128 MiB", false, -1, UZIP_DTYPE_FP16, 128 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  // Under budgets the rounds scale with the SMs: 32 SMs hold 640 default warps (1280 blocks = 40 MiB).
  expect("bf16 256 MiB, 32 SMs", false, -1, bf16, 256 * MiB, 32, 16 * 32, UZIP_DEC_COMPACT);
  expect("bf16 1 GiB, 64 SMs", false, -1, bf16, 1024 * MiB, 64, 16 * 64, UZIP_DEC_COMPACT);
  expect("bf16 32 MiB, 32 SMs", false, -1, bf16, 32 * MiB, 32, 16 * 32, UZIP_DEC_DEFAULT);
  expect("bf16 48 MiB, 32 SMs", false, -1, bf16, 48 * MiB, 32, 16 * 32, UZIP_DEC_COMPACT);
  // bf16 up to 16 MiB: 2^13-element blocks of 16 KiB (the estimate; split calls code 2^12); 1 MiB is 64 blocks.
  expect("bf16 1 MiB", false, -1, bf16, 1 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("bf16 64 KiB", false, -1, bf16, 64 * 1024, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("fp16 1 MiB", false, -1, UZIP_DTYPE_FP16, 1 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);
  expect("fp32 1 MiB", false, -1, UZIP_DTYPE_FP32, 1 * MiB, 132, warps, UZIP_DEC_WIDE);
  expect("bytes 1 MiB", false, -1, UZIP_DTYPE_BYTES, 1 * MiB, 132, warps, UZIP_DEC_DEFAULT);
  expect("bf16 16 MiB", false, -1, bf16, 16 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);  // 1024 blocks
  // fp8 (one byte, 2^14-element blocks of 16 KiB): a round is 33 MiB.
  const int fp8 = UZIP_DTYPE_FP8E4M3;
  expect("fp8 256 MiB", false, -1, fp8, 256 * MiB, 132, warps, UZIP_DEC_COMPACT);
  expect("fp8 16 MiB", false, -1, fp8, 16 * MiB, 132, warps, UZIP_DEC_ONE_ROUND);
  // Lean: compact from two rounds of the lean kernel's warps (2-byte elements in 2^13 blocks: bytes >> 14).
  for (uint64_t w : {132ull * 16, 8ull * 16, 1ull * 16}) {
    const uint64_t border = (2 * w) << 14;
    expect_lean("lean just under two rounds", -1, border - 1, w, false);
    expect_lean("lean two rounds", -1, border, w, true);
    expect_lean("lean forced 0", 0, 64 * border, w, false);
    expect_lean("lean forced 1", 1, 1, w, true);
  }
  expect_lean("lean 16 MiB on an H200", -1, 16 * MiB, 132 * 16, false);
  expect_lean("lean 1 GiB on an H200", -1, 1024 * MiB, 132 * 16, true);
  expect_apart("wide apart just under 1 GiB", -1, 1024 * MiB - 1, false);
  expect_apart("wide apart 1 GiB", -1, 1024 * MiB, true);
  expect_apart("wide apart 4 GiB", -1, 4096 * MiB, true);
  expect_apart("wide apart forced 0", 0, 4096 * MiB, false);
  expect_apart("wide apart forced 1", 1, 1, true);
  printf("dec_variant_test: %d checks, %d failures\n", g_checks, g_fail);
  return g_fail ? 1 : 0;
}
