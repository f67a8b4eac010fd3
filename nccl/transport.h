// A transport moves byte ranges between the ranks of one communicator. Schedules (P2P pipeline,
// collectives) are written against this interface only, so the same schedule runs over NCCL on GPUs
// (transport_nccl) and over an in-process transport on the CPU (transport_local) in tests.
#pragma once

#include <stdint.h>

namespace uzip {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // True when buffers handed to send/recv are device memory (NCCL); false for host memory.
  virtual bool onDevice() const = 0;
  // Stream-ordered moves of exactly `bytes` bytes; the peer posts the matching call with the same
  // byte count. Host transports ignore `stream` and may block until matched (inside a group: at
  // groupEnd). Return a uzip_status; on failure the thread's last error says why.
  virtual int send(const void* buf, uint64_t bytes, int peer, uint64_t stream) = 0;
  virtual int recv(void* buf, uint64_t bytes, int peer, uint64_t stream) = 0;
  // Calls between groupStart and groupEnd are issued as one group (NCCL semantics): a rank may send to
  // and receive from peers in one group without deadlock.
  virtual int groupStart() = 0;
  virtual int groupEnd() = 0;
  // Ends all outstanding operations with an error (a dead peer, a timeout): later calls fail fast.
  virtual int abort() = 0;
};

}  // namespace uzip
