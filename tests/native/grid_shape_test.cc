// Native test of the codec's launch grid under an SM budget (uzip_grid_shape, cuda/grid_shape.h), on the CPU: on the
// whole chip a call gets the CTAs it needs, at most a full grid, and no gate; under a budget every call, however
// small, gets the full grid gated to the budget's SMs (so that it keeps to them); with the old rule (spread) a
// call of at most the budget's CTAs gets just those, ungated. gpu_check runs the gated kernels on a GPU (its
// cases under 1-16 SM budgets); this pins the boundaries. Built and run by scripts/test_native.sh.
#include <stdint.h>
#include <stdio.h>

#include <initializer_list>

#include "grid_shape.h"

static int g_fail = 0, g_checks = 0;

// cap: the working CTAs a permitted SM may hold (UzipGrid::perSmCap; 0: all of them).
static void expect(const char* what, uint64_t need, uint32_t perSm, uint32_t sms, uint32_t budget, bool spread,
                   uint64_t ctas, uint32_t smLimit, uint32_t cap = 0) {
  g_checks++;
  const UzipGrid g = uzip_grid_shape(need, perSm, sms, budget, spread);
  if (g.ctas != ctas || g.smLimit != smLimit || g.perSmCap != cap) {
    printf("FAIL %s: need %llu, %u a SM, %u SMs, budget %u, spread %d: %llu CTAs gated at %u, cap %u; want %llu at %u, "
           "cap %u\n", what, (unsigned long long)need, perSm, sms, budget, (int)spread, (unsigned long long)g.ctas,
           g.smLimit, g.perSmCap, (unsigned long long)ctas, smLimit, cap);
    g_fail++;
  }
}

int main() {
  for (bool spread : {false, true}) {
    // The whole chip (a budget of 0 is mapped to the chip by the caller; any budget >= sms is the chip).
    expect("whole chip, small", 5, 4, 132, 132, spread, 5, 0);
    expect("whole chip, no work", 0, 4, 132, 132, spread, 1, 0);
    expect("whole chip, exactly full", 528, 4, 132, 132, spread, 528, 0);
    expect("whole chip, more than full", 529, 4, 132, 132, spread, 528, 0);
    expect("budget past the chip", 1000, 4, 132, 200, spread, 528, 0);
    // Past the budget's CTAs: the full grid, gated, in either rule.
    expect("budget 16, one past its CTAs", 65, 4, 132, 16, spread, 528, 16);
    expect("budget 16, many rounds", 100000, 4, 132, 16, spread, 528, 16);
    expect("budget 131", 525, 4, 132, 131, spread, 528, 131);
    expect("budget 1, 5 a SM", 6, 5, 132, 1, spread, 660, 1);
  }
  // Within the budget's CTAs: kept to the budget (default), ceil(need / budget) working CTAs a permitted SM, or
  // spread over the chip (the old rule).
  expect("budget 16, small", 3, 4, 132, 16, false, 528, 16, 1);
  expect("budget 16, one CTA a SM", 16, 4, 132, 16, false, 528, 16, 1);
  expect("budget 16, one past one a SM", 17, 4, 132, 16, false, 528, 16, 2);
  expect("budget 16, three a SM", 48, 4, 132, 16, false, 528, 16, 3);
  expect("budget 16, one short of its CTAs", 63, 4, 132, 16, false, 528, 16, 0);
  expect("budget 16, exactly its CTAs", 64, 4, 132, 16, false, 528, 16);
  expect("budget 1, one CTA", 1, 4, 132, 1, false, 528, 1, 1);
  expect("budget 116, 32 MiB of bf16 at 2^14", 256, 4, 132, 116, false, 528, 116, 3);
  expect("budget 16, small, spread", 3, 4, 132, 16, true, 3, 0);
  expect("budget 16, exactly its CTAs, spread", 64, 4, 132, 16, true, 64, 0);
  expect("budget 64, spread", 200, 4, 132, 64, true, 200, 0);
  // A smaller chip (an H100 PCIe's 114 SMs): the full grid is the device's.
  expect("114 SMs, budget 32", 10, 4, 114, 32, false, 456, 32, 1);
  if (g_fail) {
    printf("grid_shape_test: %d of %d checks failed\n", g_fail, g_checks);
    return 1;
  }
  printf("grid_shape_test: %d checks passed\n", g_checks);
  return 0;
}
