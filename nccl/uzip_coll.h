// The C ABI of compressed collectives (part of libuzip.so; bound by ffi/symbols_coll.ts).
//
// The GPU entry points take a communicator handle from uzip_comm.h and device pointers, are
// stream-ordered on `stream` like NCCL's, and choose a path by `mode`:
//   UZIP_COLL_NEVER (0)  plain NCCL (ncclAllReduce, ...; reduce and all-to-all: NCCL send/recv)
//   UZIP_COLL_ALWAYS (1) compressed: every collective through the pipelined executor (the plain
//                        schedule's exchanges, each one batch of the P2P engine, uzipP2pRun;
//                        UZIP_COLL_PIPELINE=0: the per-hop compressed schedule of nccl/coll_schedules.h)
//   UZIP_COLL_AUTO (2)   the compressed schedule only where it pays (docs/COLLECTIVES.md), else NCCL
//   UZIP_COLL_PLAIN_SCHEDULE (3) the same schedule without compression: the exact reference that
//                        ALWAYS must match bit for bit (tests)
// Counts follow NCCL: all-reduce/broadcast/reduce: elements of the buffer; reduce-scatter: elements
// received per rank; all-gather: elements sent per rank; all-to-all: elements per peer.
// dtype: uzip dtype ids (0 bytes, 1 bf16, 2 fp16, 3 fp32, 4 fp8 e4m3, 5 fp8 e5m2); reductions need 1..5.
// op: 0 sum, 1 prod, 2 max, 3 min, 4 avg (ncclRedOp_t numbering).
#pragma once

#include <stdint.h>

#include "uzip.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UZIP_COLL_NEVER 0
#define UZIP_COLL_ALWAYS 1
#define UZIP_COLL_AUTO 2
#define UZIP_COLL_PLAIN_SCHEDULE 3

UZIP_API int uzipAllReduce(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                           int32_t op, uint64_t stream, int32_t mode);
UZIP_API int uzipReduceScatter(uint64_t comm, uint64_t send, uint64_t recv, uint64_t recvCount, int32_t dtype,
                               int32_t op, uint64_t stream, int32_t mode);
UZIP_API int uzipAllGather(uint64_t comm, uint64_t send, uint64_t recv, uint64_t sendCount, int32_t dtype,
                           uint64_t stream, int32_t mode);
UZIP_API int uzipAllToAll(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                          uint64_t stream, int32_t mode);
UZIP_API int uzipBroadcast(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                           int32_t root, uint64_t stream, int32_t mode);
UZIP_API int uzipReduce(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype, int32_t op,
                        int32_t root, uint64_t stream, int32_t mode);
// Which path `mode` resolves to for a collective of `bytesPerRank` on this communicator: 0 plain NCCL,
// 1 compressed (AUTO's decision made visible; NEVER/ALWAYS return themselves).
UZIP_API int uzipCollResolveMode(uint64_t comm, int32_t kind, uint64_t bytesPerRank, int32_t dtype, int32_t mode,
                                 int32_t* outPath);
// The measured model behind AUTO on this communicator (docs/COLLECTIVES.md): plain send/recv bandwidth
// of the link, GPU compress and decompress bandwidth (raw bytes/s), the P2P engine's step cost (s), and
// plain NCCL all-reduce / all-gather algbw (bytes/s; 0 = unknown: modelled from the link).
// Every rank must set the same numbers (they decide alone and must agree). All zero: forget the model
// (AUTO is then plain NCCL).
UZIP_API int uzipCollSetModel(uint64_t comm, double linkBps, double compressBps, double decompressBps,
                              double stepSeconds, double allReduceBps, double allGatherBps);
// Elements per pipeline chunk of the compressed schedules on this process (0 = default 4 Mi).
UZIP_API int uzipCollConfigure(uint64_t chunkElems);

// Simulation for CI: runs the collective `kind` (0 all-reduce, 1 reduce-scatter, 2 all-gather,
// 3 all-to-all, 4 broadcast, 5 reduce) on `nranks` ranks as threads of this process over the in-process
// transport with the CPU codec. sendAll holds every rank's send buffer, rank after rank, each
// sendStride bytes; recvAll receives every rank's receive buffer, each recvStride bytes. Strides are
// the full NCCL buffer sizes (broadcast: every rank passes count elements, only the root's are read;
// reduce: every rank gets count elements of receive space, only the root's are written, the others
// are left untouched).
// flags: bit 0 in place (NCCL's in-place layout: all-reduce/broadcast/reduce send = recv,
//        reduce-scatter recv = send + rank * count, all-gather send = recv + rank * count);
//        bit 1 fault injection: the last rank skips the collective, so the others must time out;
//        bit 2 the GPU simulation: every rank runs the GPU backend (GPU codec and reduce kernels) on the
//        current CUDA device, its buffers in device memory, over the in-process transport staged through
//        host memory (nccl/transport_local_device.h); UZIP_ERR_NO_DEVICE without a GPU.
// compress: 0 plain schedule, 1 compressed schedule, 2 the pipelined executor (the plain schedule's data
// flow; its exchanges compress / send / receive / decode over the in-process transport).
// chunkElems: pipeline chunk (0 = default). timeoutMs: bound on every wait (0 = 20000).
// stats2 (may be null): u64[2] = {bytes sent by all ranks, messages sent}.
UZIP_API int uzipSimulateCollective(int32_t kind, int32_t nranks, int32_t dtype, int32_t op, uint64_t count,
                                    int32_t root, int32_t compress, uint64_t chunkElems, uint32_t flags,
                                    const void* sendAll, uint64_t sendStride, void* recvAll,
                                    uint64_t recvStride, uint32_t timeoutMs, uint64_t* stats2);

#ifdef __cplusplus
}
#endif
