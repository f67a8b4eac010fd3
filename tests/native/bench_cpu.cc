// Native single-core throughput of the CPU codec: MB/s of raw input (1 MB = 1e6 bytes), median of runs,
// for gaussian(0, 0.02) tensors and a few others. Build and run:
//   g++ -std=c++17 -O3 -Icuda -Itests/native cuda/cpu_*.cc cuda/inspect.cc cuda/status.cc \
//       tests/native/bench_cpu.cc -o build/native/bench_cpu && build/native/bench_cpu [MiB of input]
// (the same flags as the library build: -O3, no -march).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "test_data.h"
#include "uzip.h"

// Thread CPU time, not wall time: the machines this runs on are often shared, and CPU time of the one
// thread doing the work is what a single-core throughput means. (Wall time is printed too.)
static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double wall_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static void bench(const char* name, uint32_t dtype, DataKind kind, uint32_t flags, uint64_t bytes, int runs) {
  uint64_t n = bytes / uzip_dtype_width(dtype);
  std::vector<uint8_t> d = make_data(dtype, n, kind, 42);
  uint64_t bound = 0;
  uzipMaxCompressedSize((int)dtype, n, flags, 0, &bound);
  std::vector<uint8_t> s(bound), back(d.size());
  uint64_t used = 0, got = 0;
  std::vector<double> ct, dt, cw, dw;
  for (int r = 0; r < runs + 1; r++) {  // run 0 warms up (page faults, scratch allocation)
    double w0 = wall_s(), t0 = now_s();
    int st = uzipCompressCpu(d.data(), n, (int)dtype, flags, 0, s.data(), s.size(), &used);
    double w1 = wall_s(), t1 = now_s();
    int st2 = uzipDecompressCpu(s.data(), used, back.data(), back.size(), &got);
    double w2 = wall_s(), t2 = now_s();
    if (st || st2 || back != d) {
      fprintf(stderr, "%s: FAILED (%d %d): %s\n", name, st, st2, uzipLastError());
      exit(1);
    }
    if (r) ct.push_back(t1 - t0), dt.push_back(t2 - t1), cw.push_back(w1 - w0), dw.push_back(w2 - w1);
  }
  printf("%-26s ratio %.4f  compress %7.1f MB/s  decompress %7.1f MB/s   (wall: %7.1f / %7.1f)\n", name,
         (double)used / d.size(), d.size() / median(ct) / 1e6, d.size() / median(dt) / 1e6,
         d.size() / median(cw) / 1e6, d.size() / median(dw) / 1e6);
}

int main(int argc, char** argv) {
  uint64_t mib = argc > 1 ? strtoull(argv[1], nullptr, 10) : 64;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  uint64_t bytes = mib << 20;
  printf("CPU codec, one thread, %llu MiB per tensor, median of %d runs, MB/s of raw input by thread CPU time\n", (unsigned long long)mib, runs);
  bench("bf16 gaussian(0,0.02)", UZIP_DTYPE_BF16, GAUSS, 0, bytes, runs);
  bench("bf16 gaussian split", UZIP_DTYPE_BF16, GAUSS, UZIP_FLAG_SPLIT, bytes, runs);
  bench("bf16 gaussian checksum", UZIP_DTYPE_BF16, GAUSS, UZIP_FLAG_CHECKSUM, bytes, runs);
  bench("bf16 uniform[-1,1]", UZIP_DTYPE_BF16, UNIFORM, 0, bytes, runs);
  bench("fp16 gaussian", UZIP_DTYPE_FP16, GAUSS, 0, bytes, runs);
  bench("fp32 gaussian", UZIP_DTYPE_FP32, GAUSS, 0, bytes, runs);
  bench("e4m3 gaussian", UZIP_DTYPE_FP8E4M3, GAUSS, 0, bytes, runs);
  bench("bf16 random bits", UZIP_DTYPE_BF16, RANDOM, 0, bytes, runs);
  bench("bf16 zeros", UZIP_DTYPE_BF16, ZEROS, 0, bytes, runs);
  return 0;
}
