// The P2P chunk plan: how a compressed message is cut into pipeline chunks and which codec block size
// each uses. Both sides of a transfer compute it from the element count alone, so it needs no GPU.
#include <algorithm>

#include "p2p.h"
#include "status.h"
#include "uzip_comm.h"
#include "uzip_format.h"

namespace uzip {
namespace {

uint64_t chunkElements(uint64_t count, uint32_t dtype, uint64_t chunkBytes, uint64_t perMessage) {
  // The base chunk: about perMessage chunks per message, at least P2P_MIN_CHUNK_BYTES and at most
  // chunkBytes, in whole 2^14-element blocks. Each chunk costs two NCCL operations (head, body); with a
  // codec >= 0.5 TB/s against a ~37 GB/s link a few chunks overlap the three stages.
  uint64_t width = uzip_dtype_width(dtype);
  uint64_t block = 1ull << UZIP_LOG2_BLOCK_DEFAULT;
  uint64_t target = std::max<uint64_t>(count / perMessage, P2P_MIN_CHUNK_BYTES / width);
  uint64_t limit = std::max<uint64_t>(chunkBytes / width, block);
  uint64_t n = std::min(target, limit);
  n = std::max<uint64_t>(block, n / block * block);
  return n;
}

}  // namespace

// The chunks of one message, in order: {elements, log2 block}: the base chunk (chunkElements) repeated,
// the last one shorter. Both sides compute the same, and src/policy.ts (chunkPlan) mirrors it.
//
// Chunks of at most 16 MiB use 2^12-element blocks (ratio 0.68 instead of 0.665 on bf16): the codec's latency
// does not shrink with the chunk (a one-warp chain per block makes a 2^14-element block take ~70 us to
// compress or decode even in a small chunk, a 2^12 block ~35 us), and a small message's fill (the first
// compress) and drain (the last decode) are that latency. Measured on 2x H200, NCCL_P2P_DISABLE=1:
// 16 MiB went from 0.68-0.80x to 0.86-0.98x of plain NCCL. A ramp of chunk sizes (4, 8, 16 MiB ... at
// both ends) was tried and dropped: its extra steps cost what the shorter fill and drain saved (64 MiB
// 1.14-1.20x against 1.21-1.25x without; bench/results/h200x2-2026-11-30T1645-p2p-events).
// smallBlocks (env UZIP_P2P_SMALL_BLOCKS, default P2P_SMALL_BLOCKS): 0 = 2^14 blocks only, 1 = as above,
// 2 = also the first and the last chunk of every message whatever their size (measured: no gain beyond
// noise at 64 MiB-1 GiB, bench/results/h200x2-2026-11-30T1645-p2p-events/12-ends).
// The knobs (p2p.h P2pPlanKnobs: block sizes, the small-chunk size, edge chunks) are for tuning; their
// defaults are the plan that src/policy.ts mirrors.
void p2pChunkPlan(uint64_t count, uint32_t dtype, uint64_t chunkBytes, uint64_t perMessage, int smallBlocks,
                  std::vector<std::pair<uint64_t, uint32_t>>* out, const P2pPlanKnobs& k) {
  out->clear();
  const uint64_t width = uzip_dtype_width(dtype);
  const uint64_t block = 1ull << UZIP_LOG2_BLOCK_DEFAULT;
  auto push = [&](uint64_t n, bool end) {
    const bool small = (smallBlocks >= 1 && n * width <= k.smallChunkBytes) || (smallBlocks >= 2 && end);
    out->push_back({n, small ? k.smallLog2 : k.largeLog2});
  };
  // Edge chunks (tuning): whole 2^14-element blocks, only where the middle keeps at least their size.
  uint64_t first = k.firstBytes / width / block * block, last = k.lastBytes / width / block * block;
  if (first + last > 0 && count < 2 * (first + last)) first = last = 0;
  if (first) push(first, true);
  const uint64_t mid = count - first - last;
  const uint64_t base = chunkElements(mid, dtype, chunkBytes, perMessage);
  for (uint64_t off = 0; off < mid; off += base) {
    const uint64_t n = std::min(base, mid - off);
    push(n, (!first && off == 0) || (!last && off + n == mid));
  }
  if (last) push(last, true);
}

}  // namespace uzip

extern "C" {

UZIP_API int64_t uzipP2pChunkPlan(uint64_t count, int32_t dtype, uint64_t chunkBytes, uint64_t* counts,
                                  uint32_t* log2s, uint32_t cap) {
  if (dtype < 0 || dtype >= UZIP_DTYPE_COUNT) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown dtype %d", dtype);
  if (cap > 0 && (counts == nullptr || log2s == nullptr))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "counts and log2s must hold cap entries");
  if (count > (1ull << 40)) return uzipSetError(UZIP_ERR_INVALID_ARG, "count too large");
  std::vector<std::pair<uint64_t, uint32_t>> plan;
  uzip::p2pChunkPlan(count, (uint32_t)dtype, chunkBytes ? chunkBytes : uzip::P2P_DEFAULT_CHUNK_BYTES,
                     uzip::P2P_CHUNKS_PER_MESSAGE, uzip::P2P_SMALL_BLOCKS, &plan);
  for (size_t i = 0; i < plan.size() && i < cap; i++) counts[i] = plan[i].first, log2s[i] = plan[i].second;
  uzipClearError();
  return (int64_t)plan.size();
}

}  // extern "C"
