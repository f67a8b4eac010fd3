// NcclTransport (see transport_nccl.h).
#include "transport_nccl.h"

#include "status.h"

namespace uzip {

int NcclTransport::check(uint64_t bytes, int peer, const char* what) const {
  if (c_->aborted.load() || c_->nccl == nullptr)
    return uzipSetError(UZIP_ERR_NCCL, "%s: communicator was aborted", what);
  if (peer < 0 || peer >= c_->size)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "%s: peer %d is not in [0, %d)", what, peer, c_->size);
  if (peer == c_->rank) return uzipSetError(UZIP_ERR_INVALID_ARG, "%s: peer %d is this rank", what, peer);
  (void)bytes;
  return UZIP_OK;
}

int NcclTransport::send(const void* buf, uint64_t bytes, int peer, uint64_t stream) {
  std::lock_guard<std::recursive_mutex> g(c_->mu);
  int s = check(bytes, peer, "ncclSend");
  if (s != UZIP_OK) return s;
  ncclResult_t r = c_->api->send(buf, bytes, ncclUint8, peer, c_->nccl,
                                 reinterpret_cast<ncclStream_t>(static_cast<uintptr_t>(stream)));
  if (r == ncclInProgress && depth_ > 0) return UZIP_OK;
  return commCheck(c_, r, "ncclSend");
}

int NcclTransport::recv(void* buf, uint64_t bytes, int peer, uint64_t stream) {
  std::lock_guard<std::recursive_mutex> g(c_->mu);
  int s = check(bytes, peer, "ncclRecv");
  if (s != UZIP_OK) return s;
  ncclResult_t r = c_->api->recv(buf, bytes, ncclUint8, peer, c_->nccl,
                                 reinterpret_cast<ncclStream_t>(static_cast<uintptr_t>(stream)));
  if (r == ncclInProgress && depth_ > 0) return UZIP_OK;
  return commCheck(c_, r, "ncclRecv");
}

int NcclTransport::groupStart() {
  c_->mu.lock();  // held until the matching groupEnd: a group belongs to one thread
  if (c_->aborted.load()) {
    c_->mu.unlock();
    return uzipSetError(UZIP_ERR_NCCL, "groupStart: communicator was aborted");
  }
  depth_++;
  ncclResult_t r = c_->api->groupStart();
  if (r != ncclSuccess) {
    depth_--;
    int s = ncclStatus(r, c_->nccl, "ncclGroupStart");
    c_->mu.unlock();
    return s;
  }
  return UZIP_OK;
}

int NcclTransport::groupEnd() {
  if (depth_ == 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "groupEnd without groupStart");
  ncclResult_t r = c_->api->groupEnd();
  depth_--;
  int s = c_->aborted.load() ? uzipSetError(UZIP_ERR_NCCL, "groupEnd: communicator was aborted")
                             : commCheck(c_, r, "ncclGroupEnd");
  c_->mu.unlock();
  return s;
}

int NcclTransport::abort() {
  c_->aborted.store(true);
  std::lock_guard<std::recursive_mutex> g(c_->mu);
  commAbortLocked(c_);
  return UZIP_OK;
}

}  // namespace uzip
