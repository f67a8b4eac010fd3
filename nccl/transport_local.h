// An in-process transport: the ranks of a communicator are threads of one process and exchange host
// byte ranges through mailboxes. It exists so that the collective schedules, written against
// uzip::Transport only, can be run and checked for any number of ranks on a machine without a GPU.
//
// Semantics (chosen to be at least as strict as NCCL's where a schedule could depend on them):
// - Messages between a pair (src, dst) match in order: the k-th send from src to dst meets the k-th recv
//   on dst from src. The byte counts must be equal, else both sides fail (a schedule bug).
// - send copies the bytes into the mailbox at once and returns (eager). recv blocks until its message
//   is there; inside a group, recvs are deferred to groupEnd, so a group of sends and recvs to any peers
//   cannot deadlock.
// - Every wait is bounded by the fabric's timeout: a schedule that never posts a matching send fails
//   with UZIP_ERR_TIMEOUT instead of hanging. abort() on any rank wakes and fails every rank.
#pragma once

#include <stdint.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "transport.h"

namespace uzip {

// The shared state of one in-process communicator: one mailbox per ordered pair of ranks.
class LocalFabric {
 public:
  LocalFabric(int nranks, double timeoutSeconds);
  int size() const { return nranks_; }
  int post(int src, int dst, const void* buf, uint64_t bytes);
  int take(int src, int dst, void* buf, uint64_t bytes);
  void abort(const char* why);
  bool aborted();
  // Totals since creation, for tests and benchmarks: bytes and messages posted by all ranks.
  uint64_t bytesSent();
  uint64_t messagesSent();

 private:
  struct Message {
    std::vector<unsigned char> bytes;
  };
  int nranks_;
  double timeout_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::deque<Message>> boxes_;  // index src * nranks + dst
  bool aborted_ = false;
  char why_[256] = "";
  uint64_t bytes_ = 0, messages_ = 0;
};

// One rank's view of a LocalFabric.
class LocalTransport final : public Transport {
 public:
  LocalTransport(std::shared_ptr<LocalFabric> fabric, int rank) : fabric_(std::move(fabric)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return fabric_->size(); }
  bool onDevice() const override { return false; }
  int send(const void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int recv(void* buf, uint64_t bytes, int peer, uint64_t stream) override;
  int groupStart() override;
  int groupEnd() override;
  int abort() override;

 private:
  struct PendingRecv {
    void* buf;
    uint64_t bytes;
    int peer;
  };
  std::shared_ptr<LocalFabric> fabric_;
  int rank_;
  int depth_ = 0;
  std::vector<PendingRecv> pending_;
};

}  // namespace uzip
