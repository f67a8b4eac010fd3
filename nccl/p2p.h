// The point-to-point engine behind uzipP2pRun (see uzip_comm.h and p2p.cc), and the chunk plan that
// both sides of a transfer, the collective model and src/policy.ts share (p2p_plan.cc).
#pragma once

#include <stdint.h>

#include <functional>
#include <utility>
#include <vector>

#include "uzip_comm.h"
#include "uzip_format.h"

namespace uzip {

// Chunk plan defaults (p2p_plan.cc): about this many chunks per message, each >= MIN and <= the chunk
// size (default DEFAULT); chunks of at most SMALL_BLOCK_MAX_CHUNK_BYTES coded in
// 2^SMALL_LOG2_BLOCK-element blocks under rule P2P_SMALL_BLOCKS (see p2pChunkPlan). Two chunks per
// message, not four: on 2x H200 with NCCL_P2P_DISABLE=1 (bench/results/h200x2-2026-11-30T2300-session6,
// same runs) compressed P2P went from 0.65-0.79x / 0.89-0.98x / 1.13-1.21x to 0.90-1.02x / 1.05-1.17x /
// 1.30-1.32x of plain NCCL at 16 / 32 / 64 MiB (equal from 128 MiB, where the 32 MiB cap sets the
// chunks): each step costs NCCL's fixed time and a smaller operation runs below the link's rate, which
// the shorter fill and drain did not repay.
constexpr uint64_t P2P_CHUNKS_PER_MESSAGE = 2;
constexpr uint64_t P2P_MIN_CHUNK_BYTES = 4ull << 20;
constexpr uint64_t P2P_DEFAULT_CHUNK_BYTES = 32ull << 20;
// A 16 MiB chunk is small too: in 2^14-element blocks its 512 (bf16) one-warp blocks took 70 us to code
// and 66 us to decode on 116 SMs (the pipeline's fill and drain; timeline in
// bench/results/h200x2-2026-12-01T0040-session7/1-lane-count); counting it small gave the 64 MiB
// compressed all-reduce 1.09 -> 1.12x and all-gather 1.23-1.27 -> 1.27-1.29x of plain NCCL (two lanes;
// 2-small-chunks there).
constexpr uint64_t P2P_SMALL_BLOCK_MAX_CHUNK_BYTES = 16ull << 20;
constexpr uint32_t P2P_SMALL_LOG2_BLOCK = 12;
constexpr uint32_t P2P_LARGE_LOG2_BLOCK = UZIP_LOG2_BLOCK_DEFAULT;
constexpr int P2P_SMALL_BLOCKS = 1;

struct Comm;
// Called after each received chunk's decode is enqueued: elements [first, first + count) of op `op` are
// in place in stream order on `stream` (the engine's receive codec stream), where the hook may enqueue
// work on them; the caller's stream waits for that work with the decodes.
using P2pRecvHook = std::function<int(uint32_t op, uint64_t first, uint64_t count, uint64_t stream)>;
// A compressed receive reduced on arrival: each chunk of op `op` (a receive) is decoded and reduced by one
// kernel, buf[i] = decoded[i] op' other[i] (uzipGpuDecompressReduce; op' = redOp, in the collectives'
// numbering). other: the device address matching the op's first element; it must not overlap the op's
// buffer.
struct P2pRecvFuse {
  uint32_t op;
  uint64_t other;
  int redOp;
};
// uzipP2pRun; `collective`: a compressed collective's exchange (nccl/coll_api.cc), which uses the
// communicator's extra lanes when it has them (P2P batches only with UZIP_P2P_LANES=2); `hook`: see
// P2pRecvHook (null: none); `fuse`: see P2pRecvFuse (null: none).
int p2pRun(uint64_t comm, const uzip_p2p_op* ops, uint32_t nops, uint64_t stream, uint32_t timeoutMs,
           bool collective, const P2pRecvHook* hook = nullptr, const P2pRecvFuse* fuse = nullptr);
// Frees the engine's staging buffers, codec contexts, events and pinned words (called by destroy).
void p2pEngineDestroy(Comm* c);
// Tuning knobs of the chunk plan (env on the engine, every rank alike; defaults are the plan):
// smallLog2 / largeLog2: the block sizes of small and other chunks (UZIP_P2P_LOG2 "S,L"; "12,13" made the
// 256 MiB direct all-reduce fail on 2x H200, bench/results/h200x2-2026-12-01T0040-session7/6-log2-13: the
// codec's SM gate, fixed in session 8, not yet re-run on 2 GPUs; docs/COLLECTIVES.md);
// smallChunkBytes: chunks of at most this many bytes are small (UZIP_P2P_SMALL_CHUNK_BYTES);
// firstBytes / lastBytes: when non-zero, the message's first / last chunk has about this size and the
// rest is cut as usual (UZIP_P2P_EDGES "F,L"): a short fill (the first compress) and drain (the last
// decode) for the price of more steps.
struct P2pPlanKnobs {
  uint32_t smallLog2 = P2P_SMALL_LOG2_BLOCK, largeLog2 = P2P_LARGE_LOG2_BLOCK;
  uint64_t smallChunkBytes = P2P_SMALL_BLOCK_MAX_CHUNK_BYTES;
  uint64_t firstBytes = 0, lastBytes = 0;
};
// The chunks {elements, log2 block} a compressed message of `count` elements is cut into (p2p_plan.cc).
void p2pChunkPlan(uint64_t count, uint32_t dtype, uint64_t chunkBytes, uint64_t perMessage, int smallBlocks,
                  std::vector<std::pair<uint64_t, uint32_t>>* out, const P2pPlanKnobs& knobs = P2pPlanKnobs());

// UZIP_OK when the batch's operations to `rank` itself come in mirrored pairs (the k-th send to self and the
// k-th receive from self alike in count, dtype and compress), else UZIP_ERR_INVALID_ARG with a message that
// names the ops (p2p_self.cc).
int p2pCheckSelfPairs(const uzip_p2p_op* ops, uint32_t nops, int rank);

}  // namespace uzip
