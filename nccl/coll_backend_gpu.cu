// The GPU collective backend: device memory, the GPU codec through its C ABI (cuda/uzip.h), and
// reduction kernels (coll_reduce_gpu.cuh) with the exact element semantics of coll_reduce.h (the same code
// the CPU backend runs, compiled for the device).
//
// decodeReduce is one kernel (uzipGpuDecompressReduce: each block reduced right after it is decoded,
// while it is in L2) with UZIP_COLL_FUSE=1 and out apart from local; otherwise a decompress into scratch
// and a reduce.
// decodeReduceEncode adds a compress launch: a kernel that also encodes the result for the next hop is not
// built. The results are the same bits every way (gpu_check's decode-reduce cases, the CPU simulation).
#include <cuda_runtime.h>
#include <stdint.h>

#include <vector>

#include "coll_backend.h"
#include "coll_reduce.h"
#include "coll_reduce_gpu.cuh"
#include "coll_schedules.h"
#include "status.h"
#include "uzip.h"
#include "uzip_format.h"

namespace uzip {
namespace {

constexpr uint32_t kFlags = kCollFlags, kLog2Block = kCollLog2Block;
constexpr int kStatusSlots = 256;

#define CUDA_TRY(x)                                                                            \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) return uzipSetError(UZIP_ERR_CUDA, "%s: %s", #x, cudaGetErrorString(e_)); \
  } while (0)

class GpuBackend final : public CollBackend {
 public:
  GpuBackend(int device, uint64_t stream) : device_(device), stream_(stream) {}
  ~GpuBackend() override {
    cudaSetDevice(device_);
    for (void* p : slots_) cudaFree(p);
    if (status_) cudaFree(status_);
    if (hostWord_) cudaFreeHost(hostWord_);
    if (side_) cudaStreamDestroy(side_);
    if (fork_) cudaEventDestroy(fork_);
    if (join_) cudaEventDestroy(join_);
    if (ctx_) uzipGpuCodecDestroy(ctx_);
  }
  int init() {
    CUDA_TRY(cudaSetDevice(device_));
    CUDA_TRY(cudaGetDeviceProperties(&prop_, device_));
    if (int st = uzipGpuCodecCreate(device_, 0, &ctx_)) return st;
    CUDA_TRY(cudaMalloc(&status_, kStatusSlots * sizeof(uint32_t)));
    CUDA_TRY(cudaMemset(status_, 0, kStatusSlots * sizeof(uint32_t)));
    CUDA_TRY(cudaMallocHost(&hostWord_, 64));
    return UZIP_OK;
  }
  void setStream(uint64_t s) { stream_ = s; }
  bool onDevice() const override { return true; }
  bool fused() const override { return collFuseEnabled(UZIP_DTYPE_BF16); }  // decodeReduce (top of the file)
  int scratch(int slot, uint64_t bytes, void** out) override {
    if (slot < 0) return uzipSetError(UZIP_ERR_INTERNAL, "bad scratch slot %d", slot);
    if ((size_t)slot >= slots_.size()) {
      slots_.resize(slot + 1, nullptr);
      sizes_.resize(slot + 1, 0);
    }
    if (sizes_[slot] < bytes || !slots_[slot]) {
      if (slots_[slot]) {
        CUDA_TRY(cudaStreamSynchronize(st()));
        cudaFree(slots_[slot]);
        slots_[slot] = nullptr;
        sizes_[slot] = 0;
      }
      uint64_t want = uzip_pad16(bytes ? bytes : 16);
      cudaError_t e = cudaMalloc(&slots_[slot], want);
      if (e != cudaSuccess)
        return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cudaMalloc(%llu) for collective scratch: %s",
                            (unsigned long long)want, cudaGetErrorString(e));
      sizes_[slot] = want;
    }
    *out = slots_[slot];
    return UZIP_OK;
  }
  int copy(void* dst, const void* src, uint64_t bytes) override {
    if (bytes && dst != src) CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, st()));
    return UZIP_OK;
  }
  int copyAside(void* dst, const void* src, uint64_t bytes) override {
    if (!bytes || dst == src) return UZIP_OK;
    if (!side_) {
      CUDA_TRY(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
      CUDA_TRY(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
      CUDA_TRY(cudaEventCreateWithFlags(&join_, cudaEventDisableTiming));
    }
    CUDA_TRY(cudaEventRecord(fork_, st()));
    CUDA_TRY(cudaStreamWaitEvent(side_, fork_, 0));
    CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, side_));
    CUDA_TRY(cudaEventRecord(join_, side_));
    aside_ = true;
    return UZIP_OK;
  }
  int onStream(uint64_t stream, const std::function<int()>& f) override {
    const uint64_t own = stream_;
    stream_ = stream;
    const int s = f();
    stream_ = own;
    return s;
  }
  int joinAside() override {
    if (aside_) CUDA_TRY(cudaStreamWaitEvent(st(), join_, 0));
    aside_ = false;
    return UZIP_OK;
  }
  int toHost(void* dst, const void* src, uint64_t bytes) override {
    CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, st()));
    CUDA_TRY(cudaStreamSynchronize(st()));
    return UZIP_OK;
  }
  uint64_t maxCompressed(uint64_t count, int dtype) override {
    return uzip_max_compressed_size(count, (uint32_t)dtype, kFlags, kLog2Block);
  }
  int compress(const void* src, uint64_t count, int dtype, void* dst, uint64_t cap, uint64_t* outBytes,
               uint64_t* sizeWord) override {
    if (int s = uzipGpuCompress(ctx_, (uint64_t)src, count, dtype, kFlags, kLog2Block, (uint64_t)dst, cap,
                                (uint64_t)sizeWord, stream_))
      return s;
    CUDA_TRY(cudaStreamSynchronize(st()));
    return uzipGpuCodecLastSize(ctx_, outBytes);
  }
  int decompress(const void* src, uint64_t srcBytes, void* dst, uint64_t count, int dtype) override {
    uint32_t* slot = status_ + (next_++ % kStatusSlots);
    return uzipGpuDecompressAs(ctx_, (uint64_t)src, srcBytes, (uint64_t)dst,
                               count * uzip_dtype_width((uint32_t)dtype), (uint64_t)slot, stream_, dtype);
  }
  int reduce(void* out, const void* a, const void* b, uint64_t count, int dtype, int op) override {
    CUDA_TRY(coll_reduce_launch(out, a, b, count, dtype, op, st(), prop_.multiProcessorCount));
    return UZIP_OK;
  }
  int premulAvg(void* out, const void* in, uint64_t count, int dtype, int nranks) override {
    CUDA_TRY(coll_premul_launch(out, in, count, dtype, nranks, st(), prop_.multiProcessorCount));
    return UZIP_OK;
  }
  int decodeReduce(void* out, const void* local, const void* stream, uint64_t streamBytes, uint64_t count,
                   int dtype, int op) override {
    const uint64_t bytes = count * uzip_dtype_width((uint32_t)dtype);
    const uintptr_t o = (uintptr_t)out, l = (uintptr_t)local;
    if (collFuseEnabled(dtype) && count && (o + bytes <= l || l + bytes <= o)) {
      uint32_t* slot = status_ + (next_++ % kStatusSlots);
      return uzipGpuDecompressReduce(ctx_, (uint64_t)stream, streamBytes, (uint64_t)out, (uint64_t)local, count, dtype,
                                     op, (uint64_t)slot, stream_);
    }
    void* tmp = nullptr;
    if (int s = scratch(kDecodeSlot, count * uzip_dtype_width((uint32_t)dtype), &tmp)) return s;
    if (int s = decompress(stream, streamBytes, tmp, count, dtype)) return s;
    return reduce(out, tmp, local, count, dtype, op);
  }
  int decodeReduceEncode(void* out, const void* local, const void* stream, uint64_t streamBytes, uint64_t count,
                         int dtype, int op, void* enc, uint64_t cap, uint64_t* encBytes,
                         uint64_t* sizeWord) override {
    if (int s = decodeReduce(out, local, stream, streamBytes, count, dtype, op)) return s;
    return compress(out, count, dtype, enc, cap, encBytes, sizeWord);
  }
  // Waits for the stream and checks every decode since the last sync.
  int sync() override {
    CUDA_TRY(cudaStreamSynchronize(st()));
    if (next_ == 0) return UZIP_OK;
    uint32_t host[kStatusSlots];
    CUDA_TRY(cudaMemcpy(host, status_, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemset(status_, 0, sizeof host));
    next_ = 0;
    for (int i = 0; i < kStatusSlots; i++)
      if (host[i]) return uzipSetError((int)host[i], "a compressed collective chunk failed to decode (%s)",
                                       uzipStatusName((int)host[i]));
    return UZIP_OK;
  }

 private:
  static constexpr int kDecodeSlot = 15;
  cudaStream_t st() const { return (cudaStream_t)(uintptr_t)stream_; }
  int device_;
  uint64_t stream_;
  cudaDeviceProp prop_{};
  uint64_t ctx_ = 0;
  uint32_t* status_ = nullptr;
  void* hostWord_ = nullptr;
  cudaStream_t side_ = nullptr;  // copyAside's stream and its fork / join events
  cudaEvent_t fork_ = nullptr, join_ = nullptr;
  bool aside_ = false;
  uint64_t next_ = 0;
  std::vector<void*> slots_;
  std::vector<uint64_t> sizes_;
};

}  // namespace

// A GPU backend bound to `device`, ordered on `stream`; null with the last error set on failure.
CollBackend* newGpuCollBackend(int device, uint64_t stream) {
  GpuBackend* b = new (std::nothrow) GpuBackend(device, stream);
  if (!b) {
    uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate the GPU collective backend");
    return nullptr;
  }
  if (b->init() != UZIP_OK) {
    delete b;
    return nullptr;
  }
  return b;
}

void gpuCollBackendSetStream(CollBackend* b, uint64_t stream) { static_cast<GpuBackend*>(b)->setStream(stream); }

}  // namespace uzip
