// In-process transport for device buffers: see transport_local_device.h.
#include "transport_local_device.h"

#include <cuda_runtime_api.h>

#include <new>

#include "status.h"
#include "uzip.h"

namespace uzip {
namespace {

int cudaCheck(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return UZIP_OK;
  return uzipSetError(UZIP_ERR_CUDA, "local device transport: %s: %s", what, cudaGetErrorString(e));
}

}  // namespace

int DeviceLocalTransport::send(const void* buf, uint64_t bytes, int peer, uint64_t stream) {
  std::vector<unsigned char> host;
  try {
    host.resize(bytes);
  } catch (const std::bad_alloc&) {
    return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "local device transport: cannot stage %llu bytes",
                        (unsigned long long)bytes);
  }
  if (bytes) {
    auto s = reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(stream));
    if (int st = cudaCheck(cudaStreamSynchronize(s), "cudaStreamSynchronize")) return st;
    if (int st = cudaCheck(cudaMemcpy(host.data(), buf, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy")) return st;
  }
  return inner_.send(host.data(), bytes, peer, stream);  // the fabric copies it at once
}

int DeviceLocalTransport::recv(void* buf, uint64_t bytes, int peer, uint64_t stream) {
  try {
    landing_.push_back(Landing{buf, stream, std::vector<unsigned char>(bytes)});
  } catch (const std::bad_alloc&) {
    return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "local device transport: cannot stage %llu bytes",
                        (unsigned long long)bytes);
  }
  if (int st = inner_.recv(landing_.back().host.data(), bytes, peer, stream)) {
    landing_.pop_back();
    return st;
  }
  return depth_ ? UZIP_OK : land();
}

int DeviceLocalTransport::groupStart() {
  depth_++;
  return inner_.groupStart();
}

int DeviceLocalTransport::groupEnd() {
  if (depth_ == 0) return inner_.groupEnd();  // unbalanced: LocalTransport reports it
  const int st = inner_.groupEnd();
  if (--depth_ > 0) return st;
  if (st) {
    landing_.clear();
    return st;
  }
  return land();
}

int DeviceLocalTransport::land() {
  int st = UZIP_OK;
  for (Landing& l : landing_) {
    if (st || l.host.empty()) continue;
    auto s = reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(l.stream));
    st = cudaCheck(cudaMemcpyAsync(l.dev, l.host.data(), l.host.size(), cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    if (!st) st = cudaCheck(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  landing_.clear();
  return st;
}

}  // namespace uzip
