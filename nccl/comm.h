// A communicator: one NCCL communicator on one device plus what libuzip keeps beside it (the
// transport, the P2P engine). C++ code of other areas (collective schedules) reaches it through
// uzipCommTransportOf and the accessors below.
#pragma once

#include <cuda_runtime_api.h>
#include <stdint.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "nccl_loader.h"
#include "transport.h"

namespace uzip {

class NcclTransport;
struct P2pEngine;

struct Comm {
  const NcclApi* api = nullptr;
  ncclComm_t nccl = nullptr;     // the communicator every operation uses
  ncclComm_t initComm = nullptr; // the non-blocking one made at init, when `nccl` is a blocking split of it
  int rank = 0, size = 0, device = 0;
  uint32_t timeoutMs = 60000;
  std::atomic<bool> aborted{false};
  char lastError[512] = "";  // the last failure of an operation (see uzipCommLastError), under mu
  // Serializes every use of `nccl` by libuzip (NCCL communicators are not thread-safe).
  std::recursive_mutex mu;
  NcclTransport* transport = nullptr;
  P2pEngine* engine = nullptr;  // created on the first compressed transfer
  // Internal streams (non-blocking, on `device`), created with the communicator.
  cudaStream_t codecSendStream = nullptr;
  cudaStream_t codecRecvStream = nullptr;
  // Extra NCCL communicators of the same ranks ("lanes"; UZIP_LANES=1..4 communicators in all, default
  // 4, so three extra; none with UZIP_P2P_LANES=1 or on 1 rank): the exchanges of compressed collectives
  // (and, with UZIP_P2P_LANES=2, compressed P2P transfers) spread each large operation over them, each on
  // its own stream, because NCCL gives a peer reached through host memory 2 channels per communicator
  // (nccl/p2p.cc, docs/COLLECTIVES.md).
  static constexpr int kMaxExtraLanes = 3;
  ncclComm_t lanes[kMaxExtraLanes] = {};
  cudaStream_t laneStreams[kMaxExtraLanes] = {};
  int extraLanes = 0;  // lanes[0 .. extraLanes) are live
  bool hasLanes() const { return extraLanes > 0; }
  bool laneForP2p = false;  // UZIP_P2P_LANES=2: P2P batches use the lane too
  // Bytes each operation of the last user P2P batch put on (or took off) the wire, under mu: a compressed
  // one's streams (the same number on both sides), a plain one's raw bytes (uzipP2pLastWireBytes).
  std::vector<uint64_t> p2pLastWire;
};

// The communicator behind a handle, or null (and the last error set) when the handle is unknown or the
// communicator was aborted and `allowAborted` is false.
Comm* commFromHandle(uint64_t handle, bool allowAborted = false);

// Waits until the non-blocking communicator has finished the NCCL calls just made (ncclInProgress ->
// ncclSuccess), up to `timeoutMs`. Aborts the communicator on error or timeout.
int commWaitReady(Comm* c, uint32_t timeoutMs, const char* what);
// Checks a NCCL result of a call on `c`: success, in progress (then waits as above), or an error
// (aborting the communicator).
int commCheck(Comm* c, ncclResult_t r, const char* what);
// Keeps this thread's uzipLastError() as the last error of `c` (or of init, when c is null); returns s.
int commKeepError(Comm* c, int s);
// Aborts the NCCL communicator (idempotent). Caller holds c->mu.
void commAbortLocked(Comm* c);
// Whether init connects to every peer at once (UZIP_NCCL_EAGER_CONNECT, default on up to 64 ranks).
bool eagerConnectWanted(int nranks);
// One byte each way with every peer in one group, so that NCCL's lazy point-to-point connection
// (a host-blocking exchange on a blocking communicator) happens at init while every rank is alive.
// Polled up to the communicator's timeout; aborts the communicator on failure. Caller holds c->mu.
int connectAllPeers(Comm* c, ncclComm_t comm);

}  // namespace uzip

// For other areas of libuzip: the transport of a communicator handle (null if unknown), its device,
// and its internal streams (which = 0: codec stream of sends, 1: codec stream of receives).
uzip::Transport* uzipCommTransportOf(uint64_t comm);
int uzipCommDeviceOf(uint64_t comm);
cudaStream_t uzipCommStreamOf(uint64_t comm, int which);
