// uzip::Transport over a communicator's NCCL communicator: byte ranges as ncclUint8 send/recv on the
// caller's stream. Every call takes the communicator's lock, and waits out ncclInProgress of the
// non-blocking communicator (up to its timeout, aborting past it).
#pragma once

#include "comm.h"
#include "transport.h"

namespace uzip {

class NcclTransport final : public Transport {
 public:
  explicit NcclTransport(Comm* comm) : c_(comm) {}
  int rank() const override { return c_->rank; }
  int size() const override { return c_->size; }
  bool onDevice() const override { return true; }
  int send(const void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int recv(void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int groupStart() override;
  int groupEnd() override;
  int abort() override;
  Comm* comm() const { return c_; }

 private:
  int check(uint64_t bytes, int peer, const char* what) const;
  Comm* c_;
  int depth_ = 0;  // open groups (calls inside a group are completed by groupEnd)
};

}  // namespace uzip
