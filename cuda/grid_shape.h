// The grid of one codec launch under an SM budget (grid_shape in cuda/gpu_codec.cu), kept free of CUDA so that
// the native tests check it on a machine without a GPU (tests/native/grid_shape_test.cc).
#pragma once

#include <stdint.h>

struct UzipGrid {
  uint64_t ctas;     // CTAs to launch
  uint32_t smLimit;  // CTAs on SMs >= this take no blocks once a CTA below it has started (0: no limit; sm_gated)
  uint32_t perSmCap; // under a budget, the CTAs of a permitted SM that take blocks (claimed in arrival order;
                     // 0: every CTA). A call of fewer CTAs of work than the budget holds gets them spread over
                     // the budget's SMs, ceil(need / budget) an SM, instead of wherever the first tickets land:
                     // an encoder warp's block takes twice as long beside another busy warp on its scheduler
                     // (issue-bound), and a small call lasts as long as its slowest block.
};

// need: CTAs of work; perSm: the kernel's resident CTAs an SM; sms: the device's SMs; budget: the SMs the call may
// occupy (>= sms: the whole chip). On the whole chip a call gets the CTAs it needs, at most a full grid. Under a
// budget it gets the full grid, gated to the budget's SMs, whatever its size: a kernel of NCCL beside the codec
// needs whole SMs, and fewer CTAs would be spread over the whole chip (the hardware places them, not the codec).
// spread (UZIP_GPU_STRICT_BUDGET=0, the rule before session 44): a call of at most the budget's CTAs gets just
// those, spread over the chip; it ran faster under a budget by using more SMs than the budget (bf16 split 4 MiB
// under 16 SMs on an H100: 0.141 TB/s spread, 0.085 kept to 16 SMs; bench/results/h100-2026-12-06-session44/
// 11-strict-budget).
inline UzipGrid uzip_grid_shape(uint64_t need, uint32_t perSm, uint32_t sms, uint32_t budget, bool spread) {
  if (need < 1) need = 1;
  const uint64_t full = (uint64_t)sms * perSm;
  if (budget >= sms) return {need < full ? need : full, 0u, 0u};
  if (spread && need <= (uint64_t)budget * perSm) return {need, 0u, 0u};
  const uint64_t cap = (need + budget - 1) / budget;
  return {full, budget, cap < perSm ? (uint32_t)cap : 0u};
}
