// In-process transport: see transport_local.h.
#include "transport_local.h"

#include <string.h>

#include <chrono>
#include <new>

#include "status.h"
#include "uzip.h"

namespace uzip {

LocalFabric::LocalFabric(int nranks, double timeoutSeconds)
    : nranks_(nranks), timeout_(timeoutSeconds), boxes_((size_t)nranks * (size_t)nranks) {}

int LocalFabric::post(int src, int dst, const void* buf, uint64_t bytes) {
  Message m;
  try {
    m.bytes.resize(bytes);
  } catch (const std::bad_alloc&) {
    return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "local transport: cannot buffer a %llu-byte message",
                        (unsigned long long)bytes);
  }
  if (bytes) memcpy(m.bytes.data(), buf, bytes);
  std::lock_guard<std::mutex> lock(mu_);
  if (aborted_) return uzipSetError(UZIP_ERR_TIMEOUT, "local transport aborted: %s", why_);
  boxes_[(size_t)src * nranks_ + dst].push_back(std::move(m));
  bytes_ += bytes;
  messages_++;
  cv_.notify_all();
  return UZIP_OK;
}

int LocalFabric::take(int src, int dst, void* buf, uint64_t bytes) {
  std::unique_lock<std::mutex> lock(mu_);
  auto& box = boxes_[(size_t)src * nranks_ + dst];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_);
  while (!aborted_ && box.empty()) {
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && box.empty() && !aborted_) {
      aborted_ = true;
      snprintf(why_, sizeof why_, "rank %d waited %.1f s for a message from rank %d", dst, timeout_, src);
      cv_.notify_all();
      return uzipSetError(UZIP_ERR_TIMEOUT, "local transport: %s (schedule mismatch or dead peer)", why_);
    }
  }
  if (aborted_) return uzipSetError(UZIP_ERR_TIMEOUT, "local transport aborted: %s", why_);
  Message m = std::move(box.front());
  box.pop_front();
  if (m.bytes.size() != bytes) {
    aborted_ = true;
    snprintf(why_, sizeof why_, "rank %d expected %llu bytes from rank %d, got %llu", dst,
             (unsigned long long)bytes, src, (unsigned long long)m.bytes.size());
    cv_.notify_all();
    return uzipSetError(UZIP_ERR_INTERNAL, "local transport: %s (send/recv size mismatch)", why_);
  }
  lock.unlock();
  if (bytes) memcpy(buf, m.bytes.data(), bytes);
  return UZIP_OK;
}

void LocalFabric::abort(const char* why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!aborted_) {
    aborted_ = true;
    snprintf(why_, sizeof why_, "%s", why);
  }
  cv_.notify_all();
}

bool LocalFabric::aborted() {
  std::lock_guard<std::mutex> lock(mu_);
  return aborted_;
}

uint64_t LocalFabric::bytesSent() {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

uint64_t LocalFabric::messagesSent() {
  std::lock_guard<std::mutex> lock(mu_);
  return messages_;
}

static int checkPeer(int peer, int n, const char* what) {
  if (peer < 0 || peer >= n)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "local transport: %s peer %d outside 0..%d", what, peer, n - 1);
  return UZIP_OK;
}

int LocalTransport::send(const void* buf, uint64_t bytes, int peer, uint64_t) {
  if (int st = checkPeer(peer, size(), "send")) return st;
  if (!buf && bytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "local transport: null send buffer");
  return fabric_->post(rank_, peer, buf, bytes);
}

int LocalTransport::recv(void* buf, uint64_t bytes, int peer, uint64_t) {
  if (int st = checkPeer(peer, size(), "recv")) return st;
  if (!buf && bytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "local transport: null recv buffer");
  if (depth_ > 0) {
    pending_.push_back({buf, bytes, peer});
    return UZIP_OK;
  }
  return fabric_->take(peer, rank_, buf, bytes);
}

int LocalTransport::groupStart() {
  depth_++;
  return UZIP_OK;
}

int LocalTransport::groupEnd() {
  if (depth_ == 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "local transport: groupEnd without groupStart");
  if (--depth_ > 0) return UZIP_OK;
  // Sends were posted eagerly, so every recv of the group can now be completed in any order.
  std::vector<PendingRecv> todo;
  todo.swap(pending_);
  for (const auto& r : todo)
    if (int st = fabric_->take(r.peer, rank_, r.buf, r.bytes)) return st;
  return UZIP_OK;
}

int LocalTransport::abort() {
  char why[64];
  snprintf(why, sizeof why, "rank %d called abort", rank_);
  fabric_->abort(why);
  pending_.clear();
  depth_ = 0;
  return UZIP_OK;
}

}  // namespace uzip
