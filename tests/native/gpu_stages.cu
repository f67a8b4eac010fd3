// Profiling harness (needs a libuzip.so built with -DUZIP_STAGE_CLOCKS): times compress and decompress
// with events and prints the SM cycles each stage of a codec block took, averaged over blocks, so that
// a block's time can be split into histogram, normalization, ANS chain, look-back, payload writes, ...
// Usage: gpu_stages [dtype] [KiB ...]   (default: bf16, 64 1024 16384)
// UZIP_STAGES_FILE=path: the input is that file's bytes repeated (e.g. real weights in the dtype) instead
// of Gaussian data. UZIP_STAGES_FLAGS=2: compress in the split layout (0x12: split with lean sections, decoded
// by uzipGpuDecompressLean). UZIP_STAGES_LOG2=12: the block size (default: the library's). UZIP_STAGES_SMS=16:
// the codec's SM budget (default 0: the whole chip), to see where a block's cycles go when a budget packs
// several rounds of blocks onto few SMs.
#include <algorithm>

#include "gpu_common.h"

extern "C" int uzipGpuDebugStageClocks(uint64_t* out32);

static const char* kNames[32] = {
    "enc hist pass", "enc fold+all", "enc normalize", "enc build tab", "enc ANS chain", "enc rem plane",
    "enc look-back", "enc payload", "enc ticket", "enc max block (cycles)", 0, 0, 0, 0, 0, "enc blocks",
    "dec dir+sizes", "dec stage cp", "dec table", "dec ANS loop", "dec sym total", "dec rem+csum",
    "dec header(per warp)", "dec max block (cycles)", "dec tab k+bitmap", "dec tab freqs+scans", "dec tab fill (k<=64)",
    "dec segment open", 0, 0, 0, "dec blocks"};

int main(int argc, char** argv) {
  int32_t n = 0;
  CK(uzipCudaDeviceCount(&n));
  if (!n) { printf("SKIP gpu_stages: no CUDA device\n"); return 0; }
  int dtype = argc > 1 ? atoi(argv[1]) : 1;
  std::vector<uint64_t> kib;
  for (int i = 2; i < argc; i++) kib.push_back(strtoull(argv[i], 0, 10));
  if (kib.empty()) kib = {64, 1024, 16384};
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  const char* fl = getenv("UZIP_STAGES_FLAGS");  // e.g. 2: the split layout
  const int32_t flags = fl ? (int32_t)strtol(fl, 0, 0) : 0;
  const char* lg = getenv("UZIP_STAGES_LOG2");
  const int32_t log2Block = lg ? atoi(lg) : 0;
  uint64_t stream, ctx, e0, e1;
  CK(uzipStreamCreate(0, &stream));
  const char* sm = getenv("UZIP_STAGES_SMS");
  CK(uzipGpuCodecCreate(0, sm ? atoi(sm) : 0, &ctx));
  CK(uzipEventCreate(0, &e0));
  CK(uzipEventCreate(0, &e1));
  for (uint64_t k : kib) {
    const uint64_t bytes = k << 10, count = bytes / w;
    std::vector<uint8_t> host;
    if (const char* f = getenv("UZIP_STAGES_FILE")) {
      std::vector<uint8_t> pat;
      if (!read_file(f, pat)) { fprintf(stderr, "cannot read %s\n", f); return 1; }
      if (pat.empty()) { fprintf(stderr, "%s is empty\n", f); return 1; }
      host.resize(bytes);
      for (uint64_t o = 0; o < bytes; o++) host[o] = pat[o % pat.size()];
    } else {
      make_data(host, dtype, count, D_GAUSS, 1234);
    }
    uint64_t in, cmp, out, cap;
    CK(uzipMaxCompressedSize(dtype, count, flags, log2Block, &cap));
    CK(uzipCudaMalloc(0, bytes, &in));
    CK(uzipCudaMalloc(0, cap, &cmp));
    CK(uzipCudaMalloc(0, bytes, &out));
    CK(uzipCudaMemcpyFromHost(in, host.data(), bytes, stream));
    const int reps = 20;
    std::vector<float> tc, td;
    uint64_t clk[32], csize = 0;
    for (int r = 0; r < reps + 3; r++) {
      if (r == 3) CK(uzipGpuDebugStageClocks(clk));  // drop the warm-ups
      CK(uzipEventRecord(e0, stream));
      CK(uzipGpuCompress(ctx, in, count, dtype, flags, log2Block, cmp, cap, 0, stream));
      CK(uzipEventRecord(e1, stream));
      CK(uzipEventSynchronize(e1));
      float ms;
      CK(uzipEventElapsedMs(e0, e1, &ms));
      if (r >= 3) tc.push_back(ms);
    }
    CK(uzipGpuCodecLastSize(ctx, &csize));
    for (int r = 0; r < reps + 3; r++) {
      CK(uzipEventRecord(e0, stream));
      if (flags & 0x10)
        CK(uzipGpuDecompressLean(ctx, cmp, csize, out, bytes, 0, stream));
      else
        CK(uzipGpuDecompress(ctx, cmp, csize, out, bytes, 0, stream));
      CK(uzipEventRecord(e1, stream));
      CK(uzipEventSynchronize(e1));
      float ms;
      CK(uzipEventElapsedMs(e0, e1, &ms));
      if (r >= 3) td.push_back(ms);
    }
    int32_t st = -1;
    CK(uzipGpuCodecLastStatus(ctx, &st));
    CK(uzipGpuDebugStageClocks(clk));  // compress: reps runs; decompress: reps + 3 runs
    std::sort(tc.begin(), tc.end());
    std::sort(td.begin(), td.end());
    printf("== dtype %d, %llu KiB, ratio %.4f, status %d: compress median %.1f us, decompress median %.1f us\n", dtype,
           (unsigned long long)k, (double)csize / bytes, st, tc[reps / 2] * 1e3, td[reps / 2] * 1e3);
    double eb = clk[15] ? (double)clk[15] : 1, db = clk[31] ? (double)clk[31] : 1;
    double te = 0, tdd = 0;
    for (int i = 0; i < 32; i++) {
      if (!kNames[i] || i == 15 || i == 31) continue;
      if (i == 9 || i == 23) {  // maxima, not sums
        printf("  %-22s %10llu\n", kNames[i], (unsigned long long)clk[i]);
        continue;
      }
      double per = (double)clk[i] / (i < 16 ? eb : db);
      if (i < 8) te += per;
      if (i >= 16 && i != 18 && i != 19 && i != 22 && i < 24) tdd += per;  // 24-27: parts of 18
      printf("  %-22s %10.0f cycles/block\n", kNames[i], per);
    }
    printf("  enc sum %.0f cycles/block (%.0f blocks); dec sum %.0f cycles/block (%.0f blocks)\n", te, eb, tdd, db);
    uzipCudaFree(in);
    uzipCudaFree(cmp);
    uzipCudaFree(out);
  }
  return 0;
}
