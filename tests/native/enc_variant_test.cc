// Native test of the GPU encoder's kernel choice per call (uzip_enc_variant, cuda/enc_variant.h), on the
// CPU: a forced variant always wins; warp pairs exactly up to half a round of pairs, for two- and four-byte
// types only; the 20-warp variant exactly from 7 rounds of lone warps for one-byte types, never for two- and
// four-byte types; under an SM budget the same rules on the budget's warps. gpu_check runs both encoders on a
// GPU; this pins the boundaries, which no GPU run hits exactly. Built and run by scripts/test_native.sh.
#include <stdint.h>
#include <stdio.h>

#include <initializer_list>

#include "enc_variant.h"

static int g_fail = 0, g_checks = 0;

static void expect(uint32_t width, uint64_t nblocks, int forced, uint64_t lone, uint64_t pairs, int want) {
  g_checks++;
  const int got = uzip_enc_variant(width, nblocks, forced, lone, pairs);
  if (got != want) {
    printf("FAIL width %u, %llu blocks, forced %d, %llu lone warps, %llu pair slots: variant %d, want %d\n", width,
           (unsigned long long)nblocks, forced, (unsigned long long)lone, (unsigned long long)pairs, got, want);
    g_fail++;
  }
}

int main() {
  // A full H200: 132 SMs, 4 CTAs of 4 warps per SM for either kernel (2112 lone warps, 1056 pairs).
  const uint64_t lone = 132 * 4 * 4, pairs = 132 * 4 * 2, half = pairs / 2;
  for (uint32_t w : {1u, 2u, 4u})
    for (int f = 0; f < UZIP_ENC_VARIANTS; f++) {  // forced: whatever the size
      expect(w, 1, f, lone, pairs, f);
      expect(w, half, f, lone, pairs, f);
      expect(w, 100 * lone, f, lone, pairs, f);
    }
  for (uint32_t w : {2u, 4u}) {  // warp pairs up to half a round of them, then lone warps
    expect(w, 0, -1, lone, pairs, UZIP_ENC_PAIR_VARIANT);
    expect(w, 1, -1, lone, pairs, UZIP_ENC_PAIR_VARIANT);
    expect(w, half, -1, lone, pairs, UZIP_ENC_PAIR_VARIANT);
    expect(w, half + 1, -1, lone, pairs, 0);
    expect(w, pairs, -1, lone, pairs, 0);
  }
  for (uint64_t n : {(uint64_t)0, (uint64_t)1, half, pairs}) expect(1, n, -1, lone, pairs, 0);  // never pairs
  // Many rounds: the 20-warp variant from 7 rounds for one-byte types, never for two- and four-byte types
  // (session 22: the select-form step put variant 0 ahead for bf16 up to 2 GiB, level at 4 GiB).
  expect(1, UZIP_ENC_MANY_ROUNDS1 * lone - 1, -1, lone, pairs, 0);
  expect(1, UZIP_ENC_MANY_ROUNDS1 * lone, -1, lone, pairs, 1);
  expect(1, 100 * lone, -1, lone, pairs, 1);
  for (uint64_t n : {(uint64_t)7, (uint64_t)15, (uint64_t)31, (uint64_t)124, (uint64_t)1000})
    for (uint32_t w : {2u, 4u}) expect(w, n * lone, -1, lone, pairs, 0);
  // An SM budget of 16: 256 lone warps, 128 pairs.
  const uint64_t lone16 = 16 * 4 * 4, pairs16 = 16 * 4 * 2;
  expect(2, pairs16 / 2, -1, lone16, pairs16, UZIP_ENC_PAIR_VARIANT);
  expect(2, pairs16 / 2 + 1, -1, lone16, pairs16, 0);
  expect(1, UZIP_ENC_MANY_ROUNDS1 * lone16 - 1, -1, lone16, pairs16, 0);
  expect(1, UZIP_ENC_MANY_ROUNDS1 * lone16, -1, lone16, pairs16, 1);
  expect(2, 100 * lone16, -1, lone16, pairs16, 0);
  // The staged fp32 symbol plane: split-layout fp32 from 2^28 elements on variant 0, one-segment blocks,
  // interleaved coding; UZIP_GPU_ENC_SYMSTAGE forces it either way where the kernel exists.
  auto sym = [&](uint32_t w, int v, uint32_t lg, uint32_t flags, uint64_t n, int forced, bool want) {
    g_checks++;
    if (uzip_enc_sym_staged(w, v, lg, flags, n, forced) != want) {
      g_fail++;
      fprintf(stderr, "FAIL sym w=%u v=%d lg=%u flags=%u n=%llu forced=%d: want %d\n", w, v, lg, flags,
              (unsigned long long)n, forced, (int)want);
    }
  };
  const uint64_t big = UZIP_ENC_SYM_MIN_COUNT;
  sym(4, 0, 14, 0x02, big, -1, true);
  sym(4, 0, 14, 0x03, big, -1, true);     // with a checksum
  sym(4, 0, 14, 0x02, big - 1, -1, false);  // 256 MiB and under lose
  sym(4, 0, 14, 0x00, big, -1, false);      // the default layout loses
  sym(4, 0, 15, 0x02, big, -1, false);      // two segments: their own kernels
  sym(4, 0, 14, 0x06, big, -1, false);      // lane streams
  sym(4, 0, 14, 0x0A, big, -1, false);      // pair coding
  sym(4, 0, 14, 0x12, big, -1, false);      // lean sections: kernels of their own
  sym(4, 0, 14, 0x12, big, 1, false);
  sym(4, 1, 14, 0x02, big, -1, false);
  sym(4, 3, 14, 0x02, big, -1, false);
  sym(2, 0, 14, 0x02, big, -1, false);
  sym(1, 0, 14, 0x02, big, -1, false);
  sym(4, 0, 13, 0x00, 1000, 1, true);       // forced on
  sym(4, 0, 14, 0x02, big, 0, false);       // forced off
  sym(4, 3, 14, 0x02, 1000, 1, false);      // no such kernel for warp pairs
  sym(2, 0, 14, 0x02, big, 1, false);
  printf("enc_variant_test: %d checks, %d failures\n", g_checks, g_fail);
  return g_fail ? 1 : 0;
}
