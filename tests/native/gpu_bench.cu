// Native GPU codec timing (CUDA events through the C ABI): warm-up, then the median of >= 10 timed runs
// of compress and decompress per (dtype, size, maxSms), against a device-to-device copy of the same input
// size in the same run. Throughput = input (uncompressed) bytes / time. Prints a table; writes JSON.
// Up to 64 MiB it also times 20 calls enqueued back to back between two events ("stream" columns, per
// call): the device time of a call in a pipeline, without the host's launch latency that a lone call on an
// idle stream includes.
// Usage: gpu_bench OUT.json [--max-mib N] [--reps N] [--commit SHA] [--cmd "..."]
//                  [--dtypes 1,3] [--sizes-kib 64,1024] [--sms 0,8,64]   (filters; --sms takes any budgets;
//                                                                         default: everything but
//                                                                         fp8 e5m2, dtype 5)
//                  [--log2 K]   (block size 2^K; default 0 = the library's default, uzip_default_log2_block)
//                  [--flags F]  (header flags: 2 = split layout, 1 = checksum; default 0)
//                  [--dec-hint 0|1]  (1, the default: decode with the stream's dtype given,
//                                     uzipGpuDecompressAs; 0: uzipGpuDecompress, no dtype)
//                  (flag 8, pair coding: the GPU has no pair decoder yet, so decompression is not timed and
//                   the round trip is the CPU codec's decode of every GPU stream)
//                  [--input FILE]  (the data: FILE's bytes, elements of the one dtype given, repeated
//                                   over each size; e.g. real weights converted here. Default: Gaussian
//                                   N(0, 0.02^2), 64 MiB tiled)
#include <algorithm>
#include <string>
#include <vector>

// "a,b,c" -> numbers.
static std::vector<uint64_t> parse_list(const char* s) {
  std::vector<uint64_t> v;
  while (*s) {
    char* e;
    v.push_back(strtoull(s, &e, 10));
    s = *e ? e + 1 : e;
  }
  return v;
}
static bool has(const std::vector<uint64_t>& v, uint64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

#include "gpu_common.h"

static float time_ms(uint64_t e0, uint64_t e1) {
  float ms = 0;
  CK(uzipEventElapsedMs(e0, e1, &ms));
  return ms;
}
// Lane streams (flag UZIP_FLAG_LANES), pair streams (UZIP_FLAG_PAIRS) and lean sections (UZIP_FLAG_LEAN) decode
// through their own entry points.
static uint32_t g_flags = 0;
// UZIP_BENCH_EITHER=1: default and lean streams decode through uzipGpuDecompressEither (both kernels enqueued).
static const bool g_either = env_is_one("UZIP_BENCH_EITHER");
// UZIP_BENCH_LEAN_DEFAULT=1: lean streams decode through the default entry (its kernels' out-of-line lean path).
static const bool g_leanDefault = env_is_one("UZIP_BENCH_LEAN_DEFAULT");
static int decode(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t cap, uint64_t stream, int hint) {
  if (g_either && !(g_flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS)))
    return uzipGpuDecompressEither(ctx, src, srcBytes, dst, cap, 0, stream, hint);
  if (g_flags & UZIP_FLAG_LANES) return uzipGpuDecompressLanes(ctx, src, srcBytes, dst, cap, 0, stream, hint);
  if (g_flags & UZIP_FLAG_PAIRS) return uzipGpuDecompressPairs(ctx, src, srcBytes, dst, cap, 0, stream);
  if ((g_flags & UZIP_FLAG_LEAN) && !g_leanDefault) return uzipGpuDecompressLean(ctx, src, srcBytes, dst, cap, 0, stream);
  return uzipGpuDecompressAs(ctx, src, srcBytes, dst, cap, 0, stream, hint);
}
static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: gpu_bench OUT.json [--max-mib N] [--reps N] [--commit S] [--cmd S]\n"); return 2; }
  uint64_t maxMib = 4096;
  int reps = 15;
  std::string commit = "unknown", cmd = "";
  std::vector<uint64_t> onlyDtypes, onlySizesKib, onlySms;
  uint32_t log2 = 0, flags = 0;
  int decHint = 1;
  const char* input = nullptr;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--dtypes")) onlyDtypes = parse_list(argv[i + 1]);
    else if (!strcmp(argv[i], "--sizes-kib")) onlySizesKib = parse_list(argv[i + 1]);
    else if (!strcmp(argv[i], "--sms")) onlySms = parse_list(argv[i + 1]);
    if (!strcmp(argv[i], "--max-mib")) maxMib = strtoull(argv[i + 1], 0, 10);
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--commit")) commit = argv[i + 1];
    else if (!strcmp(argv[i], "--cmd")) cmd = argv[i + 1];
    else if (!strcmp(argv[i], "--log2")) log2 = (uint32_t)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--flags")) flags = (uint32_t)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--dec-hint")) decHint = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--input")) input = argv[i + 1];
  }
  g_flags = flags;
  std::vector<uint8_t> pattern;  // --input's bytes
  if (input) {
    if (!read_file(input, pattern)) { perror(input); return 2; }
    if (onlyDtypes.size() != 1 || pattern.size() < 16) {
      fprintf(stderr, "--input needs one dtype (--dtypes) and a file of at least 16 bytes\n");
      return 2;
    }
  }
  int32_t n = 0;
  CK(uzipCudaDeviceCount(&n));
  if (!n) { printf("SKIP gpu_bench: no CUDA device\n"); return 0; }
  char name[256];
  uint64_t info[8];
  CK(uzipCudaDeviceInfo(0, name, sizeof name, info));
  uint64_t stream, ctx, e0, e1;
  CK(uzipStreamCreate(0, &stream));
  CK(uzipGpuCodecCreate(0, 0, &ctx));
  CK(uzipEventCreate(0, &e0));
  CK(uzipEventCreate(0, &e1));
  FILE* js = fopen(argv[1], "w");
  if (!js) { perror(argv[1]); return 2; }
  fprintf(js, "{\"gpu\":\"%s\",\"sms\":%llu,\"driver\":%llu,\"runtime\":%llu,\"commit\":\"%s\",\"command\":\"%s\",\"reps\":%d,\"log2Block\":%u,\"flags\":%u,\"decodeDtypeGiven\":%s,\"data\":\"%s\",\"dataBytes\":%llu,\"results\":[\n",
          name, (unsigned long long)info[0], (unsigned long long)info[6], (unsigned long long)info[7], commit.c_str(),
          cmd.c_str(), reps, log2, flags, decHint ? "true" : "false", input ? input : "gaussian(0, 0.02)",
          (unsigned long long)(input ? pattern.size() : 0));
  printf("%-7s %9s %6s %8s %10s %10s %10s %9s %9s %9s %9s\n", "dtype", "size", "maxSms", "ratio", "comp TB/s",
         "decomp TB/s", "copy TB/s", "comp us", "dec us", "stream c", "stream d");
  const int dtypes[] = {1, 2, 3, 4, 5};  // fp8 e5m2 (5) only when --dtypes names it
  const char* dnames[] = {"bytes", "bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"};
  bool first = true;
  std::vector<uint64_t> sizes;
  for (uint64_t b = 64 << 10; b <= (maxMib << 20); b *= 4)
    if (onlySizesKib.empty() || has(onlySizesKib, b >> 10)) sizes.push_back(b);
  for (uint64_t k : onlySizesKib)
    if (!has(sizes, k << 10) && k && (k << 10) <= (maxMib << 20)) sizes.push_back(k << 10);
  std::sort(sizes.begin(), sizes.end());
  if (sizes.empty()) { fprintf(stderr, "no sizes selected\n"); return 2; }
  uint64_t maxBytes = sizes.back();
  uint64_t in = 0, cmp = 0, out = 0, sizeDev = 0;
  uint64_t bound = 0;
  // One-byte types have the largest bound (pair coding, bf16 / fp32 only, does not change it).
  CK(uzipMaxCompressedSize(4, maxBytes, flags & ~UZIP_FLAG_PAIRS, log2, &bound));
  CK(uzipCudaMalloc(0, maxBytes, &in));
  CK(uzipCudaMalloc(0, bound, &cmp));
  CK(uzipCudaMalloc(0, maxBytes, &out));
  CK(uzipCudaMalloc(0, 64, &sizeDev));
  std::vector<uint8_t> host;
  for (int dtype : dtypes) {
    if (!onlyDtypes.empty() ? !has(onlyDtypes, (uint64_t)dtype) : dtype == 5) continue;
    const uint32_t w = uzip_dtype_width((uint32_t)dtype);
    // 64 MiB of gaussian data, or --input's bytes repeated to 64 MiB (a whole number of elements per
    // period), tiled over the largest size (each size times a prefix).
    const uint64_t tile = std::min<uint64_t>(maxBytes, 64ull << 20);
    if (input) {
      const uint64_t period = pattern.size() / w * w;
      host.resize(tile);
      for (uint64_t o = 0; o < tile; o++) host[o] = pattern[o % period];
    } else {
      make_data(host, dtype, tile / w, D_GAUSS, 1234);
    }
    for (uint64_t o = 0; o < maxBytes; o += tile)
      CK(uzipCudaMemcpyFromHost(in + o, host.data(), std::min<uint64_t>(tile, maxBytes - o), stream));
    for (uint64_t bytes : sizes) {
      const uint64_t count = bytes / w;
      uint64_t cap = 0;
      CK(uzipMaxCompressedSize(dtype, count, flags, log2, &cap));
      // SM budgets: --sms as given (any values; 0 = the whole chip), else 0, 8, 16, 32 (from 16 MiB).
      std::vector<int> budgets;
      for (uint64_t v : onlySms) budgets.push_back((int)v);
      if (onlySms.empty())
        for (int v : {0, 8, 16, 32})
          if (!v || bytes >= (16ull << 20)) budgets.push_back(v);
      for (int sms : budgets) {
        CK(uzipGpuCodecSetMaxSms(ctx, sms));
        std::vector<float> tc, td, tm;
        for (int r = 0; r < reps + 3; r++) {  // 3 warm-ups
          CK(uzipEventRecord(e0, stream));
          CK(uzipGpuCompress(ctx, in, count, dtype, flags, log2, cmp, cap, sizeDev, stream));
          CK(uzipEventRecord(e1, stream));
          CK(uzipEventSynchronize(e1));
          if (r >= 3) tc.push_back(time_ms(e0, e1));
        }
        uint64_t csize = 0;
        CK(uzipGpuCodecLastSize(ctx, &csize));
        for (int r = 0; r < reps + 3; r++) {
          CK(uzipEventRecord(e0, stream));
          CK(decode(ctx, cmp, csize, out, bytes, stream, decHint ? dtype : -1));
          CK(uzipEventRecord(e1, stream));
          CK(uzipEventSynchronize(e1));
          if (r >= 3) td.push_back(time_ms(e0, e1));
        }
        int32_t st = -1;
        CK(uzipGpuCodecLastStatus(ctx, &st));
        // Every size, at the first SM budget: the decode must give the input back (a wrong build can code
        // and decode with status OK; session 16's first cp.async ring in the encoder did).
        int roundTrip = -1, sameAsCpu = -1;
        if (sms == budgets[0]) {
          std::vector<uint8_t> src(bytes), back(bytes);
          CK(uzipCudaMemcpyToHost(src.data(), in, bytes, stream));
          CK(uzipCudaMemcpyToHost(back.data(), out, bytes, stream));
          CK(uzipStreamSynchronize(stream));
          roundTrip = back == src;
          if (!roundTrip) printf("MISMATCH: %s %llu bytes: the GPU decode of the GPU stream differs from the input\n",
                                 dnames[dtype], (unsigned long long)bytes);
          // --input (real data), the smallest size (the CPU codec is slow): the GPU stream must also be the
          // CPU codec's bytes.
          if (input && bytes == sizes[0]) {
            std::vector<uint8_t> g(csize), c(cap);
            CK(uzipCudaMemcpyToHost(g.data(), cmp, csize, stream));
            CK(uzipStreamSynchronize(stream));
            uint64_t cbytes = 0;
            CK(uzipCompressCpu(src.data(), count, dtype, flags, log2, c.data(), cap, &cbytes));
            sameAsCpu = cbytes == csize && !memcmp(c.data(), g.data(), csize) && roundTrip;
            if (!sameAsCpu) printf("MISMATCH: %s %llu bytes: the GPU stream or its decode differs from the CPU codec\n",
                                   dnames[dtype], (unsigned long long)bytes);
          }
        }
        for (int r = 0; r < reps + 3; r++) {
          CK(uzipEventRecord(e0, stream));
          CK(uzipCudaMemcpyAsync(out, in, bytes, stream));
          CK(uzipEventRecord(e1, stream));
          CK(uzipEventSynchronize(e1));
          if (r >= 3) tm.push_back(time_ms(e0, e1));
        }
        std::vector<float> sc, sd;  // back-to-back: per-call time of 20 calls in a row
        const int K = bytes <= (64ull << 20) ? 20 : 0;
        for (int r = 0; K && r < reps + 1; r++) {
          CK(uzipEventRecord(e0, stream));
          for (int k = 0; k < K; k++) CK(uzipGpuCompress(ctx, in, count, dtype, flags, log2, cmp, cap, sizeDev, stream));
          CK(uzipEventRecord(e1, stream));
          CK(uzipEventSynchronize(e1));
          if (r >= 1) sc.push_back(time_ms(e0, e1) / K);
          CK(uzipEventRecord(e0, stream));
          for (int k = 0; k < K; k++) CK(decode(ctx, cmp, csize, out, bytes, stream, decHint ? dtype : -1));
          CK(uzipEventRecord(e1, stream));
          CK(uzipEventSynchronize(e1));
          if (r >= 1) sd.push_back(time_ms(e0, e1) / K);
        }
        double mc = median(tc), md = td.empty() ? 0 : median(td), mm = median(tm);
        double msc = K ? median(sc) : 0, msd = sd.empty() ? 0 : median(sd);
        double ratio = (double)csize / (double)bytes;
        printf("%-7s %8.2fM %6d %8.4f %10.3f %10.3f %10.3f %9.1f %9.1f %9.1f %9.1f%s\n", dnames[dtype],
               bytes / 1048576.0, sms, ratio, bytes / mc / 1e9, md > 0 ? bytes / md / 1e9 : 0.0, bytes / mm / 1e9, mc * 1e3, md * 1e3,
               msc * 1e3, msd * 1e3, st ? "  DECODE STATUS NOT OK" : "");
        fprintf(js, "%s{\"dtype\":\"%s\",\"bytes\":%llu,\"maxSms\":%d,\"compressedBytes\":%llu,\"decodeStatus\":%d,",
                first ? "" : ",\n", dnames[dtype], (unsigned long long)bytes, sms, (unsigned long long)csize, st);
        if (sameAsCpu >= 0) fprintf(js, "\"identicalToCpu\":%s,", sameAsCpu ? "true" : "false");
        if (roundTrip >= 0) fprintf(js, "\"roundTrip\":%s,", roundTrip ? "true" : "false");
        first = false;
        auto arr = [&](const char* k, const std::vector<float>& v) {
          fprintf(js, "\"%s\":[", k);
          for (size_t i = 0; i < v.size(); i++) fprintf(js, "%s%.5f", i ? "," : "", v[i]);
          fprintf(js, "]");
        };
        arr("compressMs", tc);
        fprintf(js, ",");
        arr("decompressMs", td);
        fprintf(js, ",");
        arr("copyMs", tm);
        if (K) {
          fprintf(js, ",");
          arr("streamCompressMs", sc);
          fprintf(js, ",");
          arr("streamDecompressMs", sd);
          fprintf(js, ",\"medianStreamCompressMs\":%.5f,\"medianStreamDecompressMs\":%.5f", msc, msd);
        }
        fprintf(js, ",\"medianCompressMs\":%.5f,\"medianDecompressMs\":%.5f,\"medianCopyMs\":%.5f}", mc, md, mm);
        fflush(js);
      }
    }
  }
  fprintf(js, "\n]}\n");
  fclose(js);
  return 0;
}
