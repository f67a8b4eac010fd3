// The point-to-point engine behind uzipP2pRun (see uzip_comm.h and p2p.cc).
#pragma once

#include <stdint.h>

#include <utility>
#include <vector>

namespace uzip {

struct Comm;
// Frees the engine's staging buffers, codec contexts, events and pinned words (called by destroy).
void p2pEngineDestroy(Comm* c);
// The chunks {elements, log2 block} a compressed message of `count` elements is cut into (p2p.cc).
void p2pChunkPlan(uint64_t count, uint32_t dtype, uint64_t chunkBytes, uint64_t perMessage, int smallBlocks,
                  std::vector<std::pair<uint64_t, uint32_t>>* out);

}  // namespace uzip
