// The GPU decoder fills a block's decode table one of three ways by its symbol count k (cuda/dec_table.h).
// gpu_check --quick is where those fills are checked against the CPU codec, so this pins, on a machine
// without a GPU, that its data sets keep reaching each of them with ANS-coded symbol planes: bf16 Gaussian
// (k <= 64), fp16 Gaussian (65..192), fp8 "special" values at 50001 elements (> 192; decode_reduce_cases
// and the lane-stream cases run it in --quick). Every data salt gpu_check may draw gives new data, so the
// check runs over several.
#include <algorithm>
#include <vector>

#include "dec_table.h"
#include "gpu_common.h"

static int g_checks = 0, g_failures = 0;

static void check(bool ok, const char* what, int dtype, int kind, uint64_t salt, uint32_t k) {
  g_checks++;
  if (ok) return;
  g_failures++;
  fprintf(stderr, "FAIL %s: dtype %d %s salt %llu (k = %u)\n", what, dtype, kDataNames[kind],
          (unsigned long long)salt, k);
}

// The first block the library cuts count elements of the set into (its default block size): its symbol
// count must lie in [lo, hi] and the CPU codec must code its symbol plane with ANS (the data maker's
// elements do not depend on count, so the block alone is that block).
static void case_in_range(int dtype, int kind, uint64_t count, uint32_t lo, uint32_t hi, uint64_t salt) {
  g_data_salt = salt;
  const uint32_t w = uzip_dtype_width((uint32_t)dtype), log2 = uzip_default_log2_block(count, (uint32_t)dtype);
  const uint64_t n = std::min(count, (uint64_t)1 << log2);
  std::vector<uint8_t> data;
  make_data(data, dtype, n, kind, 0);
  bool seen[256] = {};
  uint32_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t v = 0;
    memcpy(&v, &data[i * w], w);
    const uint32_t s = uzip_symbol_of(v, w);
    k += !seen[s];
    seen[s] = true;
  }
  check(k >= lo && k <= hi, "the first block's symbol count in the fill's range", dtype, kind, salt, k);
  uint64_t cap = 0, bytes = 0;
  CK(uzipMaxCompressedSize(dtype, n, UZIP_FLAG_SPLIT, log2, &cap));
  std::vector<uint8_t> out(cap);
  CK(uzipCompressCpu(data.data(), n, dtype, UZIP_FLAG_SPLIT, log2, out.data(), cap, &bytes));
  uzip_info info;
  CK(uzipInspect(out.data(), bytes, &info));
  check(info.nblocks == 1 && info.symAns == 1, "its symbol plane ANS", dtype, kind, salt, k);
}

int main() {
  for (uint64_t salt : {0ull, 1ull, 2ull, 3ull, 12345ull, 987654321ull}) {
    case_in_range(UZIP_DTYPE_BF16, D_GAUSS, 16384, 1, UZIP_DEC_TAB_FEW_K, salt);
    case_in_range(UZIP_DTYPE_FP16, D_GAUSS, 16384, UZIP_DEC_TAB_FEW_K + 1, UZIP_DEC_TAB_BITMAP_K, salt);
    case_in_range(UZIP_DTYPE_FP8E4M3, D_SPECIAL, 50001, UZIP_DEC_TAB_BITMAP_K + 1, 256, salt);
  }
  printf("dec_table_test: %d checks, %d failures\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}
