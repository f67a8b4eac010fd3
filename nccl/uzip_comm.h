// The C ABI of communicators and compressed point-to-point transfers (part of libuzip.so; bound by
// ffi/symbols_comm.ts). NCCL is loaded at run time (libnccl.so.2, or $UZIP_NCCL_LIB), >= 2.19.
#pragma once

#include <stdint.h>

#include "uzip.h"

#ifdef __cplusplus
extern "C" {
#endif

// The NCCL version found (e.g. 22805), loading NCCL if needed. UZIP_ERR_NCCL when missing/too old.
UZIP_API int uzipNcclVersion(int32_t* out);
// A fresh unique id (128 bytes), made by one rank and handed to all others (the launcher does this).
UZIP_API int uzipCommUniqueId(uint8_t* out128);
// Joins communicator `id` as `rank` of `nranks` on CUDA `device`. Non-blocking NCCL init polled until
// done: a peer that never arrives or fails gives UZIP_ERR_TIMEOUT / UZIP_ERR_NCCL after timeoutMs (0 =
// 60 s), and the half-made communicator is aborted. Then (up to 64 ranks, or UZIP_NCCL_EAGER_CONNECT=1)
// it connects to every peer with one byte each way, so that no later call blocks in NCCL's lazy
// connection to a peer that has died; every later wait is polled against the timeout. With 2+ ranks it
// also splits a second communicator of the same ranks, over which the exchanges of compressed collectives
// send half of each operation >= 1 MiB; UZIP_P2P_LANES (alike on every rank) = 1: no second communicator,
// = 2: compressed P2P transfers use it too.
UZIP_API int uzipCommInit(const uint8_t* id128, int32_t nranks, int32_t rank, int32_t device,
                          uint32_t timeoutMs, uint64_t* outComm);
// Finalizes (waits for outstanding work, up to the communicator's timeout; aborts past it) and frees.
UZIP_API int uzipCommDestroy(uint64_t comm);
// Ends all outstanding work now (a dead peer): later calls on the communicator fail fast. The handle
// must still be destroyed. Safe to call from another thread while a transfer is in progress.
UZIP_API int uzipCommAbort(uint64_t comm);
// The message of the last failed uzipCommInit / uzipP2pRun / uzipCommSynchronize of `comm` (comm = 0:
// of the last failed uzipCommInit), as a NUL-terminated string in out[cap]. For calls made on another
// thread (Deno's nonblocking FFI), whose thread-local uzipLastError() the caller cannot read.
UZIP_API int uzipCommLastError(uint64_t comm, char* out, uint32_t cap);
// info: i32[4] = {rank, size, device, aborted}
UZIP_API int uzipCommInfo(uint64_t comm, int32_t* out4);

// One point-to-point operation of a batch (32 bytes, little-endian, no padding).
typedef struct uzip_p2p_op {
  uint64_t buf;       // device pointer
  uint64_t count;     // elements of dtype
  int32_t dtype;      // UZIP dtype id (0 bytes, 1 bf16, 2 fp16, 3 fp32, 4 fp8e4m3, 5 fp8e5m2)
  int32_t peer;       // rank (this rank itself: NCCL's self send/receive, paired within the batch)
  int32_t isSend;     // 1 send, 0 receive
  int32_t compress;   // 1: compressed pipeline, 0: plain NCCL. Both sides must agree.
} uzip_p2p_op;

// Runs a batch of sends and receives, stream-ordered on `stream` (0 = legacy default stream): work the
// caller enqueued on `stream` before this call happens before any read of a send buffer, and work it
// enqueues after this call returns sees received data in place. Plain operations are posted in one NCCL
// group and the call returns at once. Compressed ones are chunked and pipelined by this thread (codec on
// internal streams, NCCL on `stream`), and the call returns once the last chunk is posted. Batches must
// mirror each other between peers (same operations to a peer, same order, same compress flags); operations
// with this rank as the peer pair up inside the batch (the k-th send to self with the k-th receive from
// self: same count, dtype and compress), else UZIP_ERR_INVALID_ARG before anything is posted.
// timeoutMs bounds each wait for a peer (0 = the communicator's); past it the communicator is aborted
// and UZIP_ERR_TIMEOUT returned.
UZIP_API int uzipP2pRun(uint64_t comm, const uzip_p2p_op* ops, uint32_t nops, uint64_t stream,
                        uint32_t timeoutMs);
// The bytes each operation of this communicator's last uzipP2pRun batch moved (user batches only, not a
// collective's exchanges): a compressed operation its coded streams, the same number on both sides of
// the transfer; a plain one its raw bytes; 0 for an empty one or one the batch did not reach. Writes up
// to `cap` values in op order; *outCount = the batch's ops. What the auto policy learns a pair's
// compressibility from (src/policy.ts).
UZIP_API int uzipP2pLastWireBytes(uint64_t comm, uint64_t* out, uint32_t cap, uint32_t* outCount);
// Waits (up to timeoutMs, 0 = the communicator's) until `stream` and the communicator's internal
// streams are idle, then checks every decode since the last check: a receive that decoded a corrupt
// chunk returns its status here. Aborts the communicator on timeout or NCCL failure.
UZIP_API int uzipCommSynchronize(uint64_t comm, uint64_t stream, uint32_t timeoutMs);
// Pipeline settings of one communicator; 0 keeps the current value. chunkBytes: the largest chunk
// (default 32 MiB, env UZIP_P2P_CHUNK_BYTES; a message is cut into about 2 chunks of >= 4 MiB); codecSms: SMs the codec may use (default: all but 16,
// env UZIP_P2P_CODEC_SMS). Both sides of a transfer must use the same chunkBytes.
UZIP_API int uzipP2pConfigure(uint64_t comm, uint64_t chunkBytes, int32_t codecSms);

// The chunk plan of a compressed message (what both sides of a transfer compute; no GPU needed):
// writes up to `cap` chunks' element counts and log2 block sizes, returns the number of chunks (may be
// more than cap) or a negative uzip_status. chunkBytes 0 = the default (32 MiB).
UZIP_API int64_t uzipP2pChunkPlan(uint64_t count, int32_t dtype, uint64_t chunkBytes, uint64_t* counts,
                                  uint32_t* log2s, uint32_t cap);

#ifdef __cplusplus
}
#endif
