// The in-process transport (transport_local.h) for ranks whose buffers are device memory of one GPU: the
// GPU simulation (uzipSimulateCollective with flag 4), which runs the collective schedules with the GPU
// backend on a single GPU, where NCCL cannot put two ranks.
//
// A send waits for its stream (the bytes must be final, as NCCL's stream order makes them) and posts a
// host copy; a receive lands in host memory and is copied to the device when it completes (at groupEnd
// inside a group), before the call returns. So the transport is stream-ordered the way NCCL is, only
// synchronous. Mailbox matching, timeouts and abort are LocalFabric's.
#pragma once

#include <stdint.h>

#include <deque>
#include <memory>
#include <vector>

#include "transport_local.h"

namespace uzip {

class DeviceLocalTransport final : public Transport {
 public:
  DeviceLocalTransport(std::shared_ptr<LocalFabric> fabric, int rank) : inner_(std::move(fabric), rank) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  bool onDevice() const override { return true; }
  int send(const void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int recv(void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int groupStart() override;
  int groupEnd() override;
  int abort() override { return inner_.abort(); }

 private:
  struct Landing {  // a receive's host bytes and where they go
    void* dev;
    uint64_t stream;
    std::vector<unsigned char> host;
  };
  int land();  // copies every completed receive to the device
  LocalTransport inner_;
  int depth_ = 0;
  std::deque<Landing> landing_;  // a deque: the host buffers stay put while more are added
};

}  // namespace uzip
