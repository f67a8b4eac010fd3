// The collective schedules of @uccl/zip: ring all-reduce (ring reduce-scatter then ring all-gather),
// reduce-scatter, all-gather, all-to-all, broadcast and reduce, each in a compressed and a plain
// (uncompressed) mode. They are written against uzip::Transport and uzip::CollBackend only, so the
// same code runs over NCCL with the GPU codec and over the in-process transport with the CPU codec.
// The plain mode is the exact reference "same algorithm without compression": both modes fold the
// ranks' contributions in the same order (docs/COLLECTIVES.md), so their results are bit-identical.
#pragma once

#include <stdint.h>

#include <functional>

#include "coll_backend.h"
#include "transport.h"

// Collective kinds (C ABI values).
enum uzip_coll_kind {
  UZIP_COLL_ALLREDUCE = 0,
  UZIP_COLL_REDUCESCATTER = 1,
  UZIP_COLL_ALLGATHER = 2,
  UZIP_COLL_ALLTOALL = 3,
  UZIP_COLL_BROADCAST = 4,
  UZIP_COLL_REDUCE = 5,
  UZIP_COLL_COUNT = 6
};

namespace uzip {

// One compressed point-to-point exchange of a ring step: sends sendCount elements of `dtype` at `send`
// to rank `to` and receives recvCount elements from rank `from`, decoded into `recv` (to/from -1 or a
// zero count: that side is absent). Stream-ordered like the transport: data the caller produced before
// the call is what is sent, and work the caller enqueues after it sees the received elements. On GPUs
// it is the P2P engine's chunked, LAG-pipelined exchange (uzipP2pRun); in the simulation a
// compress / send / receive / decode over the transport and backend (newScheduleExchange).
// onChunk (may be null): called as received elements [first, first + count) become ready, in pieces that
// cover the receive once, with the stream on which they are ready; work the hook enqueues through
// CollBackend::onStream(stream, ...) is ordered before what the caller enqueues after the exchange.
using ExchangeChunkHook = std::function<int(uint64_t first, uint64_t count, uint64_t stream)>;
// fuse (may be null): the received elements are reduced on arrival, recv[i] = decoded[i] op other[i]
// (CollBackend::decodeReduce's operands: decoded is the received partial, other[i] this rank's own element),
// instead of landing as they are. other holds recvCount elements and must not overlap recv. On GPUs each
// chunk is decoded and reduced by one kernel (uzipGpuDecompressReduce).
struct ExchangeFuse {
  const void* other;
  int op;
};
// One operation of CompressedExchange::exchangeMany: a send of `count` elements at `send` to `peer` (recv
// null), or a receive of `count` elements from `peer`, decoded into `recv` (send null).
struct ExchangeOp {
  const void* send;
  void* recv;
  uint64_t count;
  int peer;
};
class CompressedExchange {
 public:
  virtual ~CompressedExchange() = default;
  virtual int exchange(const void* send, uint64_t sendCount, int to, void* recv, uint64_t recvCount, int from,
                       int dtype, const ExchangeChunkHook* onChunk = nullptr, const ExchangeFuse* fuse = nullptr) = 0;
  // Sends and receives with several peers as one exchange (the direct algorithms, collDirectWanted): every
  // rank posts all of its operations together, so no order of peers can deadlock. Zero counts are skipped.
  // Stream-ordered like exchange().
  virtual int exchangeMany(const ExchangeOp* ops, uint32_t nops, int dtype) = 0;
};

// The exchange built from a transport and a backend (not pipelined): what the simulation runs.
CompressedExchange* newScheduleExchange(Transport& t, CollBackend& b, uint64_t stream);

struct CollArgs {
  int kind = UZIP_COLL_ALLREDUCE;
  const void* send = nullptr;
  void* recv = nullptr;
  // NCCL's meaning: all-reduce, broadcast, reduce: elements of the buffer; reduce-scatter: elements
  // received per rank; all-gather: elements sent per rank; all-to-all: elements per peer.
  uint64_t count = 0;
  int dtype = 0;
  int op = 0;
  int root = 0;
  bool compress = true;
  // Pipelined executor (compress must be true): when set, all-reduce, reduce-scatter and all-gather run
  // the data flow of the plain schedule with every ring exchange compressed by `exchange` (same fold
  // order as both other modes, so the same bits); all-gather on more than 2 ranks keeps the
  // compress-once-and-forward ring. Other collectives ignore it (compressed schedule).
  CompressedExchange* exchange = nullptr;
  // Elements per pipeline chunk (per ring segment for all-reduce); 0 picks a default.
  uint64_t chunkElems = 0;
  uint64_t stream = 0;
};

// Elements of the send and receive buffers for these arguments on `nranks` ranks.
void collBufferElems(const CollArgs& a, int nranks, int rank, uint64_t* sendElems, uint64_t* recvElems);
// Checks kind, dtype, op and root (uzip_status with a message).
int collValidate(const CollArgs& a, int nranks);
// Whether a 2-rank all-reduce through the pipelined executor runs "direct" (one exchange of the whole
// buffers; the default) rather than as the ring (UZIP_COLL_ALLREDUCE2=ring). Same bits either way.
bool allReduceDirectWanted();
// Whether all-reduce, reduce-scatter and all-gather on `nranks` >= 3 ranks run the direct algorithms
// (UZIP_COLL_ALGO=direct; the ring is the default) in the plain schedule and the pipelined executor:
// reduce-scatter as one exchange with every peer (each rank sends segment k of its input straight to rank
// k) and a fold in the ring's order, all-gather as one exchange with every peer, all-reduce as the two
// ("two-shot"). Same bits as the ring (docs/COLLECTIVES.md); two exchanges instead of 2 (n - 1).
bool collDirectWanted(int nranks);
// Whether received chunks of `dtype` are decoded and reduced by one kernel (UZIP_COLL_FUSE=1, two-byte
// dtypes; see fuseWanted in coll_schedules.cc); also GpuCollBackend::decodeReduce's choice.
bool collFuseEnabled(int dtype);
// Runs one collective on this rank. Every rank of the transport must call it with the same arguments
// (buffers aside). Returns a uzip_status; on failure the transport may be left unusable.
int runCollective(Transport& t, CollBackend& b, const CollArgs& a);

}  // namespace uzip
