// A plain device-to-device copy as a kernel of our own, so that ncu can profile the yardstick the codec is
// measured against (cudaMemcpyAsync's copy is no kernel ncu sees): what share of the L2 and of its fabric
// between partitions a stream at the copy's rate takes (GPU_CODEC_NOTES, forty-ninth section: the staged
// fp32 compress kernel has that fabric at 85% of peak; does any stream at ~2 TB/s of input?).
// Usage: copy_probe MIB [REPS]. Prints the kernel's and cudaMemcpyAsync's median TB/s of input (events).
// Build: nvcc -O3 -std=c++17 -arch=sm_90 tests/native/copy_probe.cu -o copy_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                      \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

// Grid-stride copy of n 16-byte vectors, 4 loads in flight a thread before its stores.
__global__ void copy_probe_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++) v[u] = __ldcs(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < 4; u++) __stcs(dst + i + u * stride, v[u]);
  }
  for (; i < n; i += stride) dst[i] = src[i];
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  const size_t bytes = mib << 20, n = bytes / 16;
  int dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  void *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0x3C, bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int grid = sms * 8;  // 8 CTAs of 256 threads an SM: the whole chip resident
  std::vector<double> tk, tm;
  for (int r = 0; r < reps + 2; r++) {  // the first two are warm-up
    float ms = 0;
    CK(cudaEventRecord(e0));
    copy_probe_kernel<<<grid, 256>>>((const uint4*)a, (uint4*)b, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 2) tk.push_back(ms);
    CK(cudaEventRecord(e0));
    CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 2) tm.push_back(ms);
  }
  CK(cudaGetLastError());
  const double mk = median(tk), mm = median(tm);
  std::printf("copy_probe %zu MiB: kernel %.3f ms %.3f TB/s of input, cudaMemcpyAsync %.3f ms %.3f TB/s (median of %d)\n",
              mib, mk, bytes / mk / 1e9, mm, bytes / mm / 1e9, reps);
  return 0;
}
