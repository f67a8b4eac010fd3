// The CUDA device, memory, stream and event functions of uzip.h. The runtime is linked statically, so
// the library loads with no driver: the first call asks the runtime for the device count, and when that
// fails (no driver, no GPU) every function but uzipCudaDeviceCount answers UZIP_ERR_NO_DEVICE.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include <mutex>

#include "cuda_util.h"
#include "status.h"
#include "uzip.h"

namespace {

std::once_flag g_probe_once;
int g_device_count = 0;
cudaError_t g_probe_error = cudaSuccess;

void probe() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    g_probe_error = e;
    n = 0;
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
  }
  g_device_count = n;
}

}  // namespace

int uzipCudaAvailable(void) {
  std::call_once(g_probe_once, probe);
  if (g_device_count > 0) return UZIP_OK;
  return uzipSetError(UZIP_ERR_NO_DEVICE, "no CUDA device: %s",
                      g_probe_error == cudaSuccess ? "the driver reports 0 devices"
                                                   : cudaGetErrorString(g_probe_error));
}

int uzipCudaCheck(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return UZIP_OK;
  cudaGetLastError();
  int st = e == cudaErrorMemoryAllocation ? UZIP_ERR_OUT_OF_MEMORY
         : (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? UZIP_ERR_NO_DEVICE
                                                                         : UZIP_ERR_CUDA;
  return uzipSetError(st, "%s failed: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

int uzipCudaCheckDevice(int32_t device) {
  if (int st = uzipCudaAvailable()) return st;
  if (device < 0 || device >= g_device_count)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "device %d outside 0..%d", device, g_device_count - 1);
  return UZIP_OK;
}

// Runs f with `device` current on this thread and restores the previous current device afterwards.
namespace {
struct DeviceGuard {
  int prev = -1;
  int st = UZIP_OK;
  explicit DeviceGuard(int32_t device) {
    st = uzipCudaCheckDevice(device);
    if (st) return;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    if (prev != device) st = uzipCudaCheck(cudaSetDevice(device), "cudaSetDevice");
  }
  ~DeviceGuard() {
    if (prev >= 0) cudaSetDevice(prev);
  }
};
}  // namespace

#define NEED_CUDA()                               \
  do {                                            \
    if (int st_ = uzipCudaAvailable()) return st_; \
  } while (0)

extern "C" {

UZIP_API int uzipCudaDeviceCount(int32_t* out) {
  uzipClearError();
  if (!out) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null");
  std::call_once(g_probe_once, probe);
  *out = g_device_count;
  return UZIP_OK;
}

UZIP_API int uzipCudaDeviceInfo(int32_t device, char* name, uint64_t nameCapacity, uint64_t* info8) {
  uzipClearError();
  if (int st = uzipCudaCheckDevice(device)) return st;
  cudaDeviceProp p;
  if (int st = uzipCudaCheck(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties")) return st;
  if (name && nameCapacity) {
    snprintf(name, nameCapacity, "%s", p.name);
  }
  if (info8) {
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    info8[0] = (uint64_t)p.multiProcessorCount;
    info8[1] = (uint64_t)p.totalGlobalMem;
    info8[2] = (uint64_t)p.l2CacheSize;
    info8[3] = (uint64_t)p.major;
    info8[4] = (uint64_t)p.minor;
    info8[5] = (uint64_t)p.pciBusID;
    info8[6] = (uint64_t)drv;
    info8[7] = (uint64_t)rt;
  }
  return UZIP_OK;
}

UZIP_API int uzipCudaMalloc(int32_t device, uint64_t bytes, uint64_t* outPtr) {
  uzipClearError();
  if (!outPtr) return uzipSetError(UZIP_ERR_INVALID_ARG, "outPtr is null");
  *outPtr = 0;
  DeviceGuard g(device);
  if (g.st) return g.st;
  void* p = nullptr;
  if (int st = uzipCudaCheck(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc")) return st;
  *outPtr = (uint64_t)(uintptr_t)p;
  return UZIP_OK;
}

UZIP_API int uzipCudaFree(uint64_t ptr) {
  uzipClearError();
  NEED_CUDA();
  if (!ptr) return UZIP_OK;
  return uzipCudaCheck(cudaFree((void*)(uintptr_t)ptr), "cudaFree");
}

UZIP_API int uzipCudaMallocHost(uint64_t bytes, uint64_t* outPtr) {
  uzipClearError();
  if (!outPtr) return uzipSetError(UZIP_ERR_INVALID_ARG, "outPtr is null");
  *outPtr = 0;
  NEED_CUDA();
  void* p = nullptr;
  if (int st = uzipCudaCheck(cudaMallocHost(&p, bytes ? bytes : 1), "cudaMallocHost")) return st;
  *outPtr = (uint64_t)(uintptr_t)p;
  return UZIP_OK;
}

UZIP_API int uzipCudaFreeHost(uint64_t ptr) {
  uzipClearError();
  NEED_CUDA();
  if (!ptr) return UZIP_OK;
  return uzipCudaCheck(cudaFreeHost((void*)(uintptr_t)ptr), "cudaFreeHost");
}

UZIP_API int uzipCudaMemcpyAsync(uint64_t dst, uint64_t src, uint64_t bytes, uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!bytes) return UZIP_OK;
  if (!dst || !src) return uzipSetError(UZIP_ERR_INVALID_ARG, "null pointer in uzipCudaMemcpyAsync");
  return uzipCudaCheck(cudaMemcpyAsync((void*)(uintptr_t)dst, (const void*)(uintptr_t)src, bytes,
                                       cudaMemcpyDefault, (cudaStream_t)(uintptr_t)stream),
                       "cudaMemcpyAsync");
}

UZIP_API int uzipCudaMemcpyToHost(void* dst, uint64_t src, uint64_t bytes, uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!bytes) return UZIP_OK;
  if (!dst || !src) return uzipSetError(UZIP_ERR_INVALID_ARG, "null pointer in uzipCudaMemcpyToHost");
  cudaStream_t s = (cudaStream_t)(uintptr_t)stream;
  // An explicit direction: with cudaMemcpyDefault, an address that no allocation holds is taken for host
  // memory and read on the host (a crash); this way it is an error.
  if (int st = uzipCudaCheck(cudaMemcpyAsync(dst, (const void*)(uintptr_t)src, bytes, cudaMemcpyDeviceToHost, s),
                             "cudaMemcpyAsync (to host)"))
    return st;
  return uzipCudaCheck(cudaStreamSynchronize(s), "cudaStreamSynchronize");
}

UZIP_API int uzipCudaMemcpyFromHost(uint64_t dst, const void* src, uint64_t bytes, uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!bytes) return UZIP_OK;
  if (!dst || !src) return uzipSetError(UZIP_ERR_INVALID_ARG, "null pointer in uzipCudaMemcpyFromHost");
  cudaStream_t s = (cudaStream_t)(uintptr_t)stream;
  if (int st = uzipCudaCheck(cudaMemcpyAsync((void*)(uintptr_t)dst, src, bytes, cudaMemcpyHostToDevice, s),
                             "cudaMemcpyAsync (from host)"))  // explicit, as in uzipCudaMemcpyToHost
    return st;
  return uzipCudaCheck(cudaStreamSynchronize(s), "cudaStreamSynchronize");
}

UZIP_API int uzipCudaMemsetAsync(uint64_t dst, int32_t value, uint64_t bytes, uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!bytes) return UZIP_OK;
  if (!dst) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst is null");
  return uzipCudaCheck(cudaMemsetAsync((void*)(uintptr_t)dst, value, bytes, (cudaStream_t)(uintptr_t)stream),
                       "cudaMemsetAsync");
}

UZIP_API int uzipStreamCreate(int32_t device, uint64_t* outStream) {
  uzipClearError();
  if (!outStream) return uzipSetError(UZIP_ERR_INVALID_ARG, "outStream is null");
  *outStream = 0;
  DeviceGuard g(device);
  if (g.st) return g.st;
  cudaStream_t s = nullptr;
  if (int st = uzipCudaCheck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate")) return st;
  *outStream = (uint64_t)(uintptr_t)s;
  return UZIP_OK;
}

UZIP_API int uzipStreamDestroy(uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!stream) return UZIP_OK;  // the legacy default stream is not ours to destroy
  return uzipCudaCheck(cudaStreamDestroy((cudaStream_t)(uintptr_t)stream), "cudaStreamDestroy");
}

UZIP_API int uzipStreamSynchronize(uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  return uzipCudaCheck(cudaStreamSynchronize((cudaStream_t)(uintptr_t)stream), "cudaStreamSynchronize");
}

UZIP_API int uzipEventCreate(int32_t device, uint64_t* outEvent) {
  uzipClearError();
  if (!outEvent) return uzipSetError(UZIP_ERR_INVALID_ARG, "outEvent is null");
  *outEvent = 0;
  DeviceGuard g(device);
  if (g.st) return g.st;
  cudaEvent_t e = nullptr;
  if (int st = uzipCudaCheck(cudaEventCreate(&e), "cudaEventCreate")) return st;
  *outEvent = (uint64_t)(uintptr_t)e;
  return UZIP_OK;
}

UZIP_API int uzipEventDestroy(uint64_t event) {
  uzipClearError();
  NEED_CUDA();
  if (!event) return uzipSetError(UZIP_ERR_INVALID_ARG, "event is null");
  return uzipCudaCheck(cudaEventDestroy((cudaEvent_t)(uintptr_t)event), "cudaEventDestroy");
}

UZIP_API int uzipEventRecord(uint64_t event, uint64_t stream) {
  uzipClearError();
  NEED_CUDA();
  if (!event) return uzipSetError(UZIP_ERR_INVALID_ARG, "event is null");
  return uzipCudaCheck(cudaEventRecord((cudaEvent_t)(uintptr_t)event, (cudaStream_t)(uintptr_t)stream),
                       "cudaEventRecord");
}

UZIP_API int uzipEventSynchronize(uint64_t event) {
  uzipClearError();
  NEED_CUDA();
  if (!event) return uzipSetError(UZIP_ERR_INVALID_ARG, "event is null");
  return uzipCudaCheck(cudaEventSynchronize((cudaEvent_t)(uintptr_t)event), "cudaEventSynchronize");
}

UZIP_API int uzipEventElapsedMs(uint64_t start, uint64_t end, float* outMs) {
  uzipClearError();
  if (!outMs) return uzipSetError(UZIP_ERR_INVALID_ARG, "outMs is null");
  *outMs = 0;
  NEED_CUDA();
  if (!start || !end) return uzipSetError(UZIP_ERR_INVALID_ARG, "event is null");
  return uzipCudaCheck(cudaEventElapsedTime(outMs, (cudaEvent_t)(uintptr_t)start, (cudaEvent_t)(uintptr_t)end),
                       "cudaEventElapsedTime");
}

UZIP_API int uzipStreamWaitEvent(uint64_t stream, uint64_t event) {
  uzipClearError();
  NEED_CUDA();
  if (!event) return uzipSetError(UZIP_ERR_INVALID_ARG, "event is null");
  return uzipCudaCheck(cudaStreamWaitEvent((cudaStream_t)(uintptr_t)stream, (cudaEvent_t)(uintptr_t)event, 0),
                       "cudaStreamWaitEvent");
}

}  // extern "C"
