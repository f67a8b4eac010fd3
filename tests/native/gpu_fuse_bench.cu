// Fused decode-reduce against decode-then-reduce on one GPU, same run (CUDA events, medians): per dtype and
// size, the time of (a) uzipGpuDecompress alone, (b) uzipGpuDecompress into a scratch buffer followed by
// the collectives backend's reduce (nccl/coll_reduce_gpu.cuh, compiled in here: the composed path),
// (c) uzipGpuDecompressReduce, and the reduce alone, both the backend's and the earlier form of it
// (reduce_vec below: dtype and op read at run time, as before 2026-12-01), rounds interleaved. Sum of
// bf16 / fp16 / fp32 Gaussian data. Every path must give the same bytes (checked). UZIP_FUSE_LEAN=1 (below):
// streams with lean sections and their entry points.
// Usage: gpu_fuse_bench OUT.json [--reps N] [--commit SHA] [--cmd "..."]
#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "coll_reduce.h"
#include "coll_reduce_gpu.cuh"
#include "gpu_common.h"

// The backend's reduce kernel before coll_reduce_gpu.cuh, kept as the baseline.
template <int W>
__global__ void reduce_vec(void* out, const void* a, const void* b, uint64_t count, int dtype, int op) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const float s = coll_op_scale(dtype, op);
  constexpr int kPer = 16 / W;
  for (uint64_t v = tid; v < count / kPer; v += stride) {
    uint4 x = ((const uint4*)a)[v], y = ((const uint4*)b)[v], z;
    const unsigned char *px = (const unsigned char*)&x, *py = (const unsigned char*)&y;
    unsigned char* pz = (unsigned char*)&z;
#pragma unroll
    for (int i = 0; i < kPer; i++)
      coll_store(pz, i, W, coll_reduce_elem_s(coll_load(px, i, W), coll_load(py, i, W), dtype, op, s));
    ((uint4*)out)[v] = z;
  }
}

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// UZIP_FUSE_LEAN=1: the streams have lean sections in the split layout at 2^12 (flags 0x12), decoded through
// uzipGpuDecompressLean and uzipGpuDecompressReduceLean.
static const bool g_lean = env_is_one("UZIP_FUSE_LEAN");
static const uint32_t g_flags = g_lean ? UZIP_FLAG_LEAN | UZIP_FLAG_SPLIT : 0, g_log2 = g_lean ? 12 : 0;

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: gpu_fuse_bench OUT.json [--reps N] [--commit S] [--cmd S]\n"); return 2; }
  int reps = 15;
  std::string commit = "unknown", cmd = "";
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--commit")) commit = argv[i + 1];
    else if (!strcmp(argv[i], "--cmd")) cmd = argv[i + 1];
  }
  int32_t n = 0;
  CK(uzipCudaDeviceCount(&n));
  if (!n) { printf("SKIP gpu_fuse_bench: no CUDA device\n"); return 0; }
  char name[256];
  uint64_t info[8];
  CK(uzipCudaDeviceInfo(0, name, sizeof name, info));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaStream_t cs;
  cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking);
  const uint64_t stream = (uint64_t)(uintptr_t)cs;
  uint64_t ctx;
  CK(uzipGpuCodecCreate(0, 0, &ctx));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  FILE* js = fopen(argv[1], "w");
  if (!js) { perror(argv[1]); return 2; }
  fprintf(js, "{\"gpu\":\"%s\",\"sms\":%d,\"driver\":%llu,\"commit\":\"%s\",\"command\":\"%s\",\"reps\":%d,\"op\":\"sum\",\"streamFlags\":%u,\"log2Block\":%u,"
          "\"method\":\"median of CUDA-event times per call; decode / decode+reduce / fused / reduce (backend) / reduce (earlier form), interleaved\",\"results\":[\n",
          name, sms, (unsigned long long)info[6], commit.c_str(), cmd.c_str(), reps, g_flags, g_log2);
  printf("%-5s %10s %10s %12s %10s %9s %10s %10s %8s\n", "dtype", "size", "decode us", "dec+red us", "fused us",
         "fused x", "red us", "old red us", "red x");
  const uint64_t maxBytes = 256ull << 20;
  uint64_t in, local, cmp, tmp, outA, outB, outC, cap;
  CK(uzipMaxCompressedSize(3, maxBytes / 4, g_flags, g_log2, &cap));
  uint64_t cap2 = 0;
  CK(uzipMaxCompressedSize(1, maxBytes / 2, g_flags, g_log2, &cap2));
  cap = std::max(cap, cap2);
  for (uint64_t* p : {&in, &local, &tmp, &outA, &outB, &outC}) CK(uzipCudaMalloc(0, maxBytes, p));
  CK(uzipCudaMalloc(0, cap, &cmp));
  bool first = true;
  int bad = 0;
  for (int dtype : {1, 2, 3}) {
    const uint32_t w = uzip_dtype_width((uint32_t)dtype);
    std::vector<uint8_t> host;
    make_data(host, dtype, maxBytes / w, D_GAUSS, 99);
    CK(uzipCudaMemcpyFromHost(in, host.data(), maxBytes, stream));
    make_data(host, dtype, maxBytes / w, D_GAUSS, 7);
    CK(uzipCudaMemcpyFromHost(local, host.data(), maxBytes, stream));
    for (uint64_t mib : {1, 4, 16, 32, 64, 256}) {
      const uint64_t bytes = mib << 20, count = bytes / w;
      uint64_t csize = 0, c2 = 0;
      CK(uzipMaxCompressedSize(dtype, count, g_flags, g_log2, &c2));
      CK(uzipGpuCompress(ctx, in, count, dtype, g_flags, g_log2, cmp, c2, 0, stream));
      CK(uzipStreamSynchronize(stream));
      CK(uzipGpuCodecLastSize(ctx, &csize));
      const int blocks = (int)std::min<uint64_t>((count / (16 / w) + 256) / 256, (uint64_t)sms * 8);
      std::vector<float> td, tc, tf, tr, to;
      auto timed = [&](std::vector<float>& into, int r, auto&& body) {
        float ms;
        cudaEventRecord(e0, cs);
        body();
        cudaEventRecord(e1, cs);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (r >= 3) into.push_back(ms * 1000);
      };
      auto backendReduce = [&](uint64_t out) {
        if (uzip::coll_reduce_launch((void*)out, (void*)tmp, (void*)local, count, dtype, 0, cs, sms) != cudaSuccess) {
          fprintf(stderr, "FATAL coll_reduce_launch\n");
          exit(2);
        }
      };
      auto oldReduce = [&](uint64_t out) {
        if (w == 2) reduce_vec<2><<<blocks, 256, 0, cs>>>((void*)out, (void*)tmp, (void*)local, count, dtype, 0);
        else reduce_vec<4><<<blocks, 256, 0, cs>>>((void*)out, (void*)tmp, (void*)local, count, dtype, 0);
      };
      for (int r = 0; r < reps + 3; r++) {
        auto decode = [&] {
          CK((g_lean ? uzipGpuDecompressLean : uzipGpuDecompress)(ctx, cmp, csize, tmp, bytes, 0, stream));
        };
        timed(td, r, decode);
        timed(tc, r, [&] {
          decode();
          backendReduce(outA);
        });
        timed(tf, r, [&] {
          CK((g_lean ? uzipGpuDecompressReduceLean : uzipGpuDecompressReduce)(ctx, cmp, csize, outB, local, count,
                                                                              dtype, 0, 0, stream));
        });
        timed(tr, r, [&] { backendReduce(outA); });
        timed(to, r, [&] { oldReduce(outC); });
      }
      int32_t st = -1;
      CK(uzipGpuCodecLastStatus(ctx, &st));
      std::vector<uint8_t> a(bytes), b(bytes), c(bytes);
      CK(uzipCudaMemcpyToHost(a.data(), outA, bytes, stream));
      CK(uzipCudaMemcpyToHost(b.data(), outB, bytes, stream));
      CK(uzipCudaMemcpyToHost(c.data(), outC, bytes, stream));
      const bool same = st == 0 && memcmp(a.data(), b.data(), bytes) == 0 && memcmp(a.data(), c.data(), bytes) == 0;
      bad += !same;
      const double md = median(td), mc = median(tc), mf = median(tf), mr = median(tr), mo = median(to);
      const char* dn = dtype == 1 ? "bf16" : dtype == 2 ? "fp16" : "fp32";
      printf("%-5s %7llu MiB %10.1f %12.1f %10.1f %8.2fx %10.1f %10.1f %7.2fx%s\n", dn, (unsigned long long)mib, md,
             mc, mf, mc / mf, mr, mo, mo / mr, same ? "" : "  MISMATCH");
      fprintf(js, "%s{\"dtype\":\"%s\",\"bytes\":%llu,\"decodeUs\":%.2f,\"decodeThenReduceUs\":%.2f,\"fusedUs\":%.2f,"
              "\"reduceUs\":%.2f,\"reduceEarlierFormUs\":%.2f,\"sameBytes\":%s,\"raw\":{\"decode\":[",
              first ? "" : ",\n", dn, (unsigned long long)bytes, md, mc, mf, mr, mo, same ? "true" : "false");
      first = false;
      for (size_t i = 0; i < td.size(); i++) fprintf(js, "%s%.2f", i ? "," : "", td[i]);
      fprintf(js, "],\"decodeThenReduce\":[");
      for (size_t i = 0; i < tc.size(); i++) fprintf(js, "%s%.2f", i ? "," : "", tc[i]);
      fprintf(js, "],\"fused\":[");
      for (size_t i = 0; i < tf.size(); i++) fprintf(js, "%s%.2f", i ? "," : "", tf[i]);
      fprintf(js, "],\"reduce\":[");
      for (size_t i = 0; i < tr.size(); i++) fprintf(js, "%s%.2f", i ? "," : "", tr[i]);
      fprintf(js, "],\"reduceEarlierForm\":[");
      for (size_t i = 0; i < to.size(); i++) fprintf(js, "%s%.2f", i ? "," : "", to[i]);
      fprintf(js, "]}}");
    }
  }
  fprintf(js, "\n]}\n");
  fclose(js);
  return bad ? 1 : 0;
}
