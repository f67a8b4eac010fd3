// Native GPU codec check (run on a GPU machine): GPU compress vs CPU compress byte for byte, GPU decode
// of CPU streams, CPU decode of GPU streams, over all dtypes, both layouts, checksum on/off, edge sizes
// and data kinds; then damaged streams (truncated, bit-flipped, forged header) given to the GPU decoder,
// which must report an error (or, for undetectable damage, stay inside dst) and never write outside dst
// (guard bytes); and the codec under an SM budget whose SMs another kernel holds. Only the C ABI of
// libuzip.so is used, plus a kernel of its own for that last part, and the collectives' reduce kernels
// (nccl/coll_reduce_gpu.cuh, compiled in). Usage: gpu_check [--quick] [--big] [--occupied] (only the
// occupied-SM cases) [--reduce] (only the decode-reduce and reduce cases) [--lanes] (only the lane-stream
// cases) [--seg2] (only small blocks of two ANS segments, for the sanitizers) [--pairs] (only the pair-coding
// cases) [--lean] (only the lean-section cases) [--bytes] (only the default coding's cases: with --tiny,
// --reduce, --lanes, --pairs and --lean it splits a sanitizer run of --tiny into parts) [--seed N]
// The data are fresh every run (a random salt mixed into every data seed, printed first; --seed N or
// UZIP_TEST_SEED=N repeats a run). Prints SKIP and exits 0 when there is no GPU. Exit 1 on any mismatch.
#include <unistd.h>

#include <atomic>
#include <thread>
#include <string>
#include <tuple>

#include "gpu_common.h"
#include "coll_reduce.h"  // nccl/: the reference arithmetic of the fused reduce
#include "coll_reduce_gpu.cuh"  // nccl/: the collectives backend's reduce kernels

static uint64_t g_ctx, g_stream;
static int g_fail = 0, g_cases = 0;
static bool g_mixSeg = false;  // run_case: the second segment of every 2^16 block holds random bytes
// run_case: remainders rewritten per block: its first UZIP_REM_SAMPLE_ELEMS elements random bytes (1) or
// 4 random bits (2), the rest 2 values, so that an fp32 remainder plane's sample settles RAW (1) or sends
// the encoder to count the whole plane (2) (FORMAT.md "Choosing a mode" step 2); two-byte types, which
// have no sample, code such planes ANS.
static int g_remSample = 0;
// run_case: symbols rewritten per 2^14-element block: one value but for a run of kBurstRun elements that
// cycles through the other 255 (each ~8 times a block, so each gets the ANS frequency 1 of 2048: 11 bits a
// symbol), at a different place in each block. In that run a step takes ~22 words, ~176 in 8 steps: the
// compact decoder's 8-step sub-groups cross two 128-word ring quarters at once wherever one starts in a
// quarter's last ~80 words (ring_advance's refill loop, cuda/gpu_decode.cuh). The run is 64 steps long so
// that a decoder refilling one quarter a check falls two quarters behind within it and then reads a quarter
// never refilled: session 26's run of 1024 (32 steps) let that mutant pass (session 27's call 1). run_case
// checks that the CPU stream costs at least 10.5 bits a run symbol, i.e. that the data still makes bursts.
static constexpr uint32_t kBurstRun = 2048;
static bool g_burst = false;
static bool g_wideExp = false;  // run_case: symbols uniform over 17 values (pairs_cases)

struct DevBuf {
  uint64_t p = 0, n = 0;
  void alloc(uint64_t bytes) {
    if (bytes <= n && p) return;
    if (p) CK(uzipCudaFree(p));
    CK(uzipCudaMalloc(0, bytes ? bytes : 16, &p));
    n = bytes;
  }
  ~DevBuf() { if (p) uzipCudaFree(p); }
};

static DevBuf g_in, g_cmp, g_out, g_src;
static uint32_t g_srcShift = 0;  // run_case: the input starts this many elements past a 16-byte boundary
static int g_sms = 1;  // the device's SM count

// The decode entry point for a stream of these flags: lane streams have their own.
// UZIP_CHECK_EITHER=1: default and lean streams through uzipGpuDecompressEither instead (its damaged streams too).
static const bool g_either = env_is_one("UZIP_CHECK_EITHER");
static int decompress_for(uint32_t flags, uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t cap,
                          uint64_t stream) {
  if (g_either && !(flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS)))
    return uzipGpuDecompressEither(ctx, src, srcBytes, dst, cap, 0, stream, -1);
  return (flags & UZIP_FLAG_LANES)   ? uzipGpuDecompressLanes(ctx, src, srcBytes, dst, cap, 0, stream, -1)
         : (flags & UZIP_FLAG_PAIRS) ? uzipGpuDecompressPairs(ctx, src, srcBytes, dst, cap, 0, stream)
         : (flags & UZIP_FLAG_LEAN)  ? uzipGpuDecompressLean(ctx, src, srcBytes, dst, cap, 0, stream)
                                     : uzipGpuDecompress(ctx, src, srcBytes, dst, cap, 0, stream);
}

static uint64_t first_diff(const uint8_t* a, const uint8_t* b, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (a[i] != b[i]) return i;
  return n;
}

// One round trip case. Returns compressed bytes (CPU).
static uint64_t run_case(int dtype, uint64_t count, int kind, uint32_t flags, uint32_t log2, bool verbose) {
  g_cases++;
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  std::vector<uint8_t> data;
  make_data(data, dtype, count, kind, count + flags * 3 + log2);
  if (g_remSample && w > 1) {
    std::mt19937 r((uint32_t)count + 7u);
    const uint64_t blockMask = (1ull << log2) - 1u;
    for (uint64_t i = 0; i < count; i++) {
      uint32_t v = 0;
      memcpy(&v, &data[i * w], w);
      const uint32_t x = (uint32_t)r();
      uint32_t rem = (i & blockMask) < UZIP_REM_SAMPLE_ELEMS ? (g_remSample == 1 ? x : x & 0x0Fu) : 0x10u + (uint32_t)(i & 1u);
      rem &= w == 2 ? 0xFFu : 0xFFFFFFu;
      v = uzip_join(uzip_symbol_of(v, w), rem, w);
      memcpy(&data[i * w], &v, w);
    }
  }
  if (g_mixSeg) {  // segments of one block with very different word counts under the block's one table
    std::mt19937 r((uint32_t)count);
    for (uint64_t i = 0; i < count * w; i++)
      if (((i / w) & 65535u) >= 16384u && ((i / w) & 65535u) < 32768u) data[i] = (uint8_t)r();
  }
  if (g_burst) {
    std::mt19937 r((uint32_t)count + 11u);
    for (uint64_t i = 0; i < count; i++) {
      const uint64_t j = i & 16383u, start = ((i >> 14) * 4099u) % (16384u - kBurstRun);
      const uint32_t k = (uint32_t)((j - start) % 255u);  // run symbols: every byte but 0x38
      const uint32_t sym = j >= start && j < start + kBurstRun ? (k < 0x38u ? k : k + 1u) : 0x38u;
      const uint32_t v = w == 1 ? sym : uzip_join(sym, (uint32_t)r() & (w == 2 ? 0xFFu : 0xFFFFFFu), w);
      memcpy(&data[i * w], &v, w);
    }
  }
  if (g_wideExp && w > 1) {  // symbols uniform over 17 values: pair coding's ~8 bits a step (see pairs_cases)
    std::mt19937 r((uint32_t)count + 13u);
    for (uint64_t i = 0; i < count; i++) {
      const uint32_t v = uzip_join(0x70u + (uint32_t)(r() % 17u), (uint32_t)r() & (w == 2 ? 0xFFu : 0xFFFFFFu), w);
      memcpy(&data[i * w], &v, w);
    }
  }
  uint64_t bound = 0;
  CK(uzipMaxCompressedSize(dtype, count, flags, log2, &bound));
  std::vector<uint8_t> cpu(bound), gpu(bound, 0xEE), back(count * w + 1);
  uint64_t cpuBytes = 0;
  CK(uzipCompressCpu(data.data(), count, dtype, flags, log2, cpu.data(), bound, &cpuBytes));
  if (g_burst) {
    // Each block's symbol section: its table (256 symbols), one segment header, the 16384 - kBurstRun common
    // symbols (frequency 2048 - 255) and the run; the remainders are raw (random) and the header and
    // directory ~9 bytes a block. Run symbols at >= 10.5 bits (11 when their frequency is 1) keep the bursts.
    const double fixedBytes = uzip_ans_table_bytes(256) + UZIP_ANS_SEG_HEADER_BYTES +
                              (16384.0 - kBurstRun) * std::log2(2048.0 / (2048 - 255)) / 8.0;
    const double runBits =
        ((double)(cpuBytes - count * (w - 1)) / (double)(count >> 14) - fixedBytes) * 8.0 / (double)kBurstRun;
    if (runBits < 10.5) {
      g_fail++;
      printf("FAIL burst data dtype=%d n=%llu: %.2f bits a run symbol (< 10.5): no bursts to test\n", dtype,
             (unsigned long long)count, runBits);
    }
  }
  g_in.alloc(count * w + 16);
  g_cmp.alloc(bound);
  g_out.alloc(count * w + 16);
  const uint64_t inp = g_in.p + (uint64_t)g_srcShift * w;
  CK(uzipCudaMemcpyFromHost(inp, data.data(), count * w, g_stream));
  CK(uzipCudaMemsetAsync(g_cmp.p, 0xEE, bound, g_stream));
  CK(uzipGpuCompress(g_ctx, inp, count, dtype, flags, log2, g_cmp.p, bound, 0, g_stream));
  CK(uzipStreamSynchronize(g_stream));
  uint64_t gpuBytes = 0;
  CK(uzipGpuCodecLastSize(g_ctx, &gpuBytes));
  CK(uzipCudaMemcpyToHost(gpu.data(), g_cmp.p, bound, g_stream));
  bool ok = true;
  char why[200] = "";
  if (gpuBytes != cpuBytes) {
    ok = false;
    snprintf(why, sizeof why, "size gpu %llu cpu %llu", (unsigned long long)gpuBytes, (unsigned long long)cpuBytes);
  } else if (uint64_t d = first_diff(gpu.data(), cpu.data(), cpuBytes); d != cpuBytes) {
    ok = false;
    snprintf(why, sizeof why, "byte %llu differs (gpu %02x cpu %02x)", (unsigned long long)d, gpu[d], cpu[d]);
  }
  // GPU decode of the CPU stream: with no dtype given, with the stream's own (fp32 has its own kernel), and
  // with another one (a wrong dtype may only cost speed).
  if (ok) CK(uzipCudaMemcpyFromHost(g_cmp.p, cpu.data(), cpuBytes, g_stream));
  // Lane streams decode through uzipGpuDecompressLanes (hints -3: no dtype, and dtypes); the other entry points must refuse them
  // (UNSUPPORTED), and uzipGpuDecompressLanes must refuse every other stream (INVALID_ARG).
  const bool lanes = (flags & UZIP_FLAG_LANES) != 0, pairs = (flags & UZIP_FLAG_PAIRS) != 0;
  // The stream's flags: the library's default coding adds lean sections to small split bf16, fp16 and fp32
  // calls (uzip_default_lean_log2) that leave the block size to it.
  uzip_info info{};
  CK(uzipInspect(cpu.data(), cpuBytes, &info));
  const bool lean = (info.flags & UZIP_FLAG_LEAN) != 0;
  if (!lean && log2 == 0 && uzip_default_lean(count, (uint32_t)dtype, flags)) {
    ok = false;
    snprintf(why, sizeof why, "the default coding of a small split stream is not lean");
  }
  // Pair streams decode through uzipGpuDecompressPairs, lean sections through uzipGpuDecompressLean and also
  // through the byte-coding decoders (out of line, below); those refuse pair streams (UNSUPPORTED), and each
  // other decoder every stream not its own (INVALID_ARG).
  enum { DEC_BYTES, DEC_LANES, DEC_PAIRS, DEC_LEAN };
  const int own = lanes ? DEC_LANES : pairs ? DEC_PAIRS : lean ? DEC_LEAN : DEC_BYTES;
  static const char* kDecName[] = {"default", "lanes", "pairs", "lean"};
  for (int other : {DEC_BYTES, DEC_LANES, DEC_PAIRS, DEC_LEAN}) {
    if (!ok || other == own || (lean && other == DEC_BYTES)) continue;
    CK(other == DEC_BYTES   ? uzipGpuDecompress(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream)
       : other == DEC_LANES ? uzipGpuDecompressLanes(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream, -1)
       : other == DEC_PAIRS ? uzipGpuDecompressPairs(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream)
                            : uzipGpuDecompressLean(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream));
    CK(uzipStreamSynchronize(g_stream));
    int32_t st = -1;
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    if (st != (other == DEC_BYTES ? UZIP_ERR_UNSUPPORTED : UZIP_ERR_INVALID_ARG)) {
      ok = false;
      snprintf(why, sizeof why, "the %s decoder gave %s", kDecName[other], uzipStatusName(st));
    }
  }
  // Pair streams: once into an aligned destination and once into one off its 16-byte alignment by one element
  // (the decoder's one-step path for every step).
  // Pair and lean streams: an aligned destination and one off its 16-byte alignment by one element.
  const int hints[3] = {lanes ? -3 : pairs ? -4 : -2, pairs || lean ? -5 : dtype,
                        dtype == UZIP_DTYPE_FP32 ? (int)UZIP_DTYPE_BF16 : (int)UZIP_DTYPE_FP32};
  // A decode into g_out + dOff (guarded by 0x5A bytes) must give the data back with status 0.
  auto decoded_ok = [&](const char* what, int hint, uint64_t dOff) {
    CK(uzipStreamSynchronize(g_stream));
    int32_t st = -1;
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    CK(uzipCudaMemcpyToHost(back.data(), g_out.p + dOff, count * w + 1, g_stream));
    if (st != 0) snprintf(why, sizeof why, "%s (hint %d) status %s", what, hint, uzipStatusName(st));
    else if (uint64_t d = first_diff(back.data(), data.data(), count * w); d != count * w)
      snprintf(why, sizeof why, "%s (hint %d) byte %llu differs", what, hint, (unsigned long long)d);
    else if (back[count * w] != 0x5A) snprintf(why, sizeof why, "%s (hint %d) wrote past the end", what, hint);
    else return true;
    return false;
  };
  for (int hint : hints) {
    if (!ok || ((pairs || lean) && hint >= 0)) break;
    const uint64_t ctx = g_ctx;
    CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 16, g_stream));
    // Lane streams: without a dtype, with their own (fp32 and one-byte types take the other lane kernel)
    // and with another one.
    const uint64_t dOff = hint == -5 ? w : 0;
    if (lanes) CK(uzipGpuDecompressLanes(ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream, hint == -3 ? -1 : hint));
    else if (pairs) CK(uzipGpuDecompressPairs(ctx, g_cmp.p, cpuBytes, g_out.p + dOff, count * w, 0, g_stream));
    else if (lean) CK(uzipGpuDecompressLean(ctx, g_cmp.p, cpuBytes, g_out.p + dOff, count * w, 0, g_stream));
    else if (hint == -2) CK(uzipGpuDecompress(ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream));
    else CK(uzipGpuDecompressAs(ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream, hint));
    ok = decoded_ok("gpu decode", hint, dOff);
  }
  // Lean streams through the byte-coding decoders' entries too (their out-of-line lean path): no dtype, the
  // stream's own and another one, as a default stream above.
  for (int hint : {-1, dtype, dtype == UZIP_DTYPE_FP32 ? (int)UZIP_DTYPE_BF16 : (int)UZIP_DTYPE_FP32}) {
    if (!ok || !lean) break;
    CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 16, g_stream));
    if (hint < 0) CK(uzipGpuDecompress(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream));
    else CK(uzipGpuDecompressAs(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream, hint));
    ok = decoded_ok("default entry of a lean stream", hint, 0);
  }
  // uzipGpuDecompressEither: default and lean streams decode exactly (one of its two kernels leaves the stream
  // alone), lane and pair streams are refused (UNSUPPORTED, by the default kernel).
  if (ok) {
    CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 16, g_stream));
    CK(uzipGpuDecompressEither(g_ctx, g_cmp.p, cpuBytes, g_out.p, count * w, 0, g_stream, -1));
    if (lanes || pairs) {
      CK(uzipStreamSynchronize(g_stream));
      int32_t st = -1;
      CK(uzipGpuCodecLastStatus(g_ctx, &st));
      if (st != UZIP_ERR_UNSUPPORTED) {
        ok = false;
        snprintf(why, sizeof why, "the either decoder gave %s", uzipStatusName(st));
      }
    } else {
      ok = decoded_ok("either decode", -1, 0);
    }
  }
  // CPU decode of the GPU stream (equal bytes, but this also runs when sizes matched only).
  if (ok) {
    uint64_t outBytes = 0;
    std::vector<uint8_t> back2(count * w + 1);
    int st = uzipDecompressCpu(gpu.data(), gpuBytes, back2.data(), count * w, &outBytes);
    if (st || memcmp(back2.data(), data.data(), count * w)) {
      ok = false;
      snprintf(why, sizeof why, "cpu decode of gpu stream: %s", uzipStatusName(st));
    }
  }
  if (!ok) g_fail++;
  if (!ok || verbose)
    printf("%s dtype=%d n=%llu kind=%s flags=%u log2=%u ratio=%.4f %s\n", ok ? "ok  " : "FAIL", dtype,
           (unsigned long long)count, kDataNames[kind], flags, log2,
           count ? (double)cpuBytes / (double)(count * w) : 0.0, why);
  return cpuBytes;
}

// Damaged streams: the GPU decoder must not write outside dst and must flag what the checksum catches.
static void corrupt_cases(int dtype, uint64_t count, uint32_t flags, int trials, uint64_t seed, uint32_t log2 = 0) {
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  std::vector<uint8_t> data;
  make_data(data, dtype, count, D_GAUSS, seed);
  uint64_t bound = 0, bytes = 0;
  CK(uzipMaxCompressedSize(dtype, count, flags, log2, &bound));
  std::vector<uint8_t> s(bound);
  CK(uzipCompressCpu(data.data(), count, dtype, flags, log2, s.data(), bound, &bytes));
  s.resize(bytes);
  std::mt19937_64 rng(seed);
  const uint64_t guard = 4096, cap = count * w;
  std::vector<uint8_t> out(cap + 2 * guard);
  int errors = 0, agree = 0, silent = 0, bad = 0;
  for (int t = 0; t < trials; t++) {
    std::vector<uint8_t> c = s;
    uint64_t len = c.size();
    int how = t % 3;
    if (how == 0) len = rng() % len;  // truncated
    else if (how == 1) {              // 1..4 bit flips anywhere
      int k = 1 + (int)(rng() % 4);
      for (int i = 0; i < k; i++) c[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
    } else {  // forged header: change a field, recompute the check so the forgery gets past it
      uint32_t wd[14];
      int f = (int)(rng() % 6);
      uint64_t v = rng();
      switch (f) {
        case 0: memcpy(&c[8], &v, 8); break;                                  // count
        case 1: { uint64_t tot = v % (2 * len); memcpy(&c[16], &tot, 8); break; }  // total
        case 2: c[7] = (uint8_t)(10 + rng() % 7); break;                       // log2Block
        case 3: c[5] = (uint8_t)(rng() % 6); break;                            // dtype
        case 4: { uint64_t n = count + 1 + rng() % 5; memcpy(&c[8], &n, 8); break; }
        default: c[64 + rng() % (len - 64)] ^= 0xFF; break;  // body byte (header intact)
      }
      memcpy(wd, c.data(), 56);
      uint32_t chk = uzip_header_check(wd);
      memcpy(&c[56], &chk, 4);
    }
    g_src.alloc(len ? len : 16);
    if (g_src.p) CK(uzipCudaFree(g_src.p));
    CK(uzipCudaMalloc(0, len ? len : 16, &g_src.p));  // exact size, so the sanitizer sees over-reads
    g_src.n = len;
    if (len) CK(uzipCudaMemcpyFromHost(g_src.p, c.data(), len, g_stream));
    g_out.alloc(cap + 2 * guard);
    CK(uzipCudaMemsetAsync(g_out.p, 0xA5, cap + 2 * guard, g_stream));
    // Every other trial through the fp32 kernel (uzipGpuDecompressAs), whatever the stream's dtype; a lean
    // stream's odd trials through it and through the default entry in turn (their out-of-line lean path).
    // Lane and pair streams through their own entry points.
    if ((t & 1) && (flags & UZIP_FLAG_LEAN) && !g_either && (t & 2))
      CK(uzipGpuDecompress(g_ctx, g_src.p, len, g_out.p + guard, cap, 0, g_stream));
    else if ((t & 1) && !(flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS)) && !((flags & UZIP_FLAG_LEAN) && g_either))
      CK(uzipGpuDecompressAs(g_ctx, g_src.p, len, g_out.p + guard, cap, 0, g_stream, UZIP_DTYPE_FP32));
    else CK(decompress_for(flags, g_ctx, g_src.p, len, g_out.p + guard, cap, g_stream));
    CK(uzipStreamSynchronize(g_stream));
    int32_t st = -1;
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    CK(uzipCudaMemcpyToHost(out.data(), g_out.p, cap + 2 * guard, g_stream));
    bool guardsOk = true;
    for (uint64_t i = 0; i < guard; i++)
      guardsOk &= out[i] == 0xA5 && out[guard + cap + i] == 0xA5;
    std::vector<uint8_t> cpuOut(cap + 1);
    uint64_t ob = 0;
    int cst = uzipDecompressCpu(c.data(), len, cpuOut.data(), cap, &ob);
    if (st) errors++;
    if ((st != 0) == (cst != 0)) agree++;
    bool dataOk = memcmp(out.data() + guard, data.data(), cap) == 0;
    if (!st && !dataOk) silent++;
    // With the checksum on, an OK status must mean the exact data; never a write outside dst.
    if (!guardsOk || ((flags & UZIP_FLAG_CHECKSUM) && !st && !dataOk)) {
      bad++;
      printf("FAIL corrupt dtype=%d flags=%u trial=%d how=%d status=%s cpu=%s guards=%s data=%s\n", dtype, flags, t,
             how, uzipStatusName(st), uzipStatusName(cst), guardsOk ? "ok" : "BROKEN", dataOk ? "ok" : "differs");
    }
  }
  g_fail += bad;
  printf("corrupt dtype=%d n=%llu flags=%u log2=%u: %d trials, %d errors reported, %d agree with CPU status, "
         "%d silently different (no checksum), %d failures\n", dtype, (unsigned long long)count, flags, log2, trials,
         errors, agree, silent, bad);
}

// The SM budget under contention. With maxSms < the SM count, codec CTAs that land on the other SMs are
// gated. Here a kernel of this test holds every permitted SM (one CTA per SM, all the shared memory), as
// the P2P engine's decode kernel or NCCL's can, so every codec CTA lands on a gated SM; the call must still
// code (decode) every block, bit for bit. Before the gate_open rule (cuda/gpu_warp.cuh) such a call did
// nothing and reported success.
__global__ void occupy_kernel(uint32_t limit, const volatile uint32_t* release, volatile uint32_t* holding) {
  extern __shared__ uint8_t held[];
  uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  if (id >= limit || threadIdx.x != 0) return;
  held[0] = 1;
  holding[blockIdx.x] = 1;
  while (*release == 0) __nanosleep(2000);
}

struct Occupier {
  cudaStream_t s = nullptr;
  uint32_t *release = nullptr, *holding = nullptr, *releaseDev = nullptr, *holdingDev = nullptr;
  int sms = 0;
  // Launches the kernel and waits (up to 5 s) until `limit` CTAs hold SMs [0, limit). False if they don't.
  bool start(uint32_t limit) {
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int smem = 0;
    cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaHostAlloc((void**)&release, 4, cudaHostAllocMapped);
    cudaHostAlloc((void**)&holding, 4 * sms, cudaHostAllocMapped);
    *(volatile uint32_t*)release = 0;
    memset(holding, 0, 4 * sms);
    cudaHostGetDevicePointer((void**)&releaseDev, release, 0);
    cudaHostGetDevicePointer((void**)&holdingDev, holding, 0);
    cudaFuncSetAttribute(occupy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    occupy_kernel<<<sms, 32, smem, s>>>(limit, releaseDev, holdingDev);
    if (cudaGetLastError() != cudaSuccess) return false;
    for (int ms = 0; ms < 5000; ms++) {
      uint32_t n = 0;
      for (int i = 0; i < sms; i++) n += ((volatile uint32_t*)holding)[i];
      if (n == limit) return true;
      usleep(1000);
    }
    return false;
  }
  void stop() {
    *(volatile uint32_t*)release = 1;
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    cudaFreeHost(release);
    cudaFreeHost(holding);
  }
};

// Enqueue `work` (on g_stream, for ctx) while the permitted SMs are held, and wait for it; a watchdog
// releases the SMs after 20 s so that a codec that waits for them cannot hang the check. Returns false
// (and says why) when the setup failed or the call needed the watchdog.
template <class F>
static bool under_occupation(uint32_t limit, F work, const char* what) {
  Occupier occ;
  if (!occ.start(limit)) {
    printf("FAIL occupied SMs (%s): the test kernel could not hold SMs [0, %u)\n", what, limit);
    occ.stop();
    return false;
  }
  uint64_t ev = 0;
  CK(uzipEventCreate(0, &ev));
  work();
  CK(uzipEventRecord(ev, g_stream));
  std::atomic<bool> done{false}, fired{false};
  std::thread dog([&] {
    for (int ms = 0; ms < 20000 && !done.load(); ms++) usleep(1000);
    if (!done.load()) {
      fired = true;
      *(volatile uint32_t*)occ.release = 1;
    }
  });
  CK(uzipEventSynchronize(ev));
  done = true;
  dog.join();
  occ.stop();
  CK(uzipEventDestroy(ev));
  if (fired) printf("FAIL occupied SMs (%s): the codec only finished once the SMs were released\n", what);
  return !fired;
}

// budget: the context's SM budget is the held SMs [0, limit), as above. Without one (budget false) the
// codec's grid is sized as for an idle chip and its CTAs queue for the free SMs [limit, sms): a one-round
// decode then takes its blocks by warp index, so a CTA that starts only when another has finished must
// still decode its own (dec_by_index in cuda/gpu_decode.cuh), and the encoder's warps must wait in the
// look-back only on warps already resident. A hang is the watchdog's FAIL.
static void occupied_case(int dtype, uint64_t count, uint32_t flags, uint32_t log2, bool budget = true) {
  g_cases++;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const uint32_t limit = (uint32_t)(sms > 32 ? sms - 16 : sms / 2);
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  std::vector<uint8_t> data;
  make_data(data, dtype, count, D_GAUSS, count + 99);
  uint64_t bound = 0, cpuBytes = 0, gpuBytes = 0;
  CK(uzipMaxCompressedSize(dtype, count, flags, log2, &bound));
  std::vector<uint8_t> cpu(bound), gpu(bound), back(count * w);
  CK(uzipCompressCpu(data.data(), count, dtype, flags, log2, cpu.data(), bound, &cpuBytes));
  uint64_t ctx = 0;
  CK(uzipGpuCodecCreate(0, budget ? (int32_t)limit : 0, &ctx));
  g_in.alloc(count * w);
  g_cmp.alloc(bound);
  g_out.alloc(count * w);
  CK(uzipCudaMemcpyFromHost(g_in.p, data.data(), count * w, g_stream));
  // A first call of each kind outside the test: it allocates the context's scratch (cudaFree/cudaMalloc
  // would wait for the holding kernel).
  CK(uzipGpuCompress(ctx, g_in.p, count, dtype, flags, log2, g_cmp.p, bound, 0, g_stream));
  CK(decompress_for(flags, ctx, g_cmp.p, cpuBytes, g_out.p, count * w, g_stream));
  CK(uzipCudaMemsetAsync(g_cmp.p, 0xEE, bound, g_stream));
  CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w, g_stream));
  CK(uzipStreamSynchronize(g_stream));
  char why[200] = "";
  bool ok = under_occupation(limit, [&] {
    CK(uzipGpuCompress(ctx, g_in.p, count, dtype, flags, log2, g_cmp.p, bound, 0, g_stream));
  }, "compress");
  CK(uzipGpuCodecLastSize(ctx, &gpuBytes));
  CK(uzipCudaMemcpyToHost(gpu.data(), g_cmp.p, bound, g_stream));
  if (ok && gpuBytes != cpuBytes) {
    ok = false;
    snprintf(why, sizeof why, "compress: size gpu %llu cpu %llu", (unsigned long long)gpuBytes,
             (unsigned long long)cpuBytes);
  } else if (ok && memcmp(gpu.data(), cpu.data(), cpuBytes)) {
    ok = false;
    snprintf(why, sizeof why, "compress: bytes differ from the CPU's");
  }
  if (ok) {
    CK(uzipCudaMemcpyFromHost(g_cmp.p, cpu.data(), cpuBytes, g_stream));
    ok = under_occupation(limit, [&] {
      CK(decompress_for(flags, ctx, g_cmp.p, cpuBytes, g_out.p, count * w, g_stream));
    }, "decompress");
    int32_t st = -1;
    CK(uzipGpuCodecLastStatus(ctx, &st));
    CK(uzipCudaMemcpyToHost(back.data(), g_out.p, count * w, g_stream));
    if (ok && st != 0) ok = false, snprintf(why, sizeof why, "decompress status %s", uzipStatusName(st));
    else if (ok && memcmp(back.data(), data.data(), count * w)) {
      ok = false;
      uint64_t differ = 0;
      for (uint64_t i = 0; i < count * w; i++) differ += back[i] != data[i];
      snprintf(why, sizeof why, "decompress: %llu of %llu bytes differ (status %s)", (unsigned long long)differ,
               (unsigned long long)(count * w), uzipStatusName(st));
    }
  }
  CK(uzipGpuCodecDestroy(ctx));
  if (!ok) g_fail++;
  printf("%s occupied SMs [0, %u) of %d%s: dtype=%d n=%llu flags=%u log2=%u %s\n", ok ? "ok  " : "FAIL", limit, sms,
         budget ? "" : ", no budget", dtype, (unsigned long long)count, flags, log2, why);
}

// got = a guard element (0x5A bytes), count elements of width w, a guard element, as read back around an
// output: writes into why the first element that differs from want, or a guard that changed.
static void guarded_diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint64_t count, uint32_t w,
                         char* why, size_t cap) {
  const uint8_t* res = got.data() + w;
  if (uint64_t d = first_diff(res, want.data(), count * w); d != count * w)
    snprintf(why, cap, "element %llu differs (gpu %02x cpu %02x at byte %llu)", (unsigned long long)(d / w), res[d],
             want[d], (unsigned long long)d);
  else if (got[0] != 0x5A || got[count * w + w] != 0x5A)
    snprintf(why, cap, "wrote outside the output");
}

// Fused decode and reduce (uzipGpuDecompressReduce): dst = decode(stream) op other must equal the CPU's
// decode followed by the collectives' element arithmetic (coll_reduce.h), bit for bit: every float dtype
// and op, special values (NaN, Inf, -0, subnormals) in both operands, tails, unaligned operands.
// lean: the stream has lean sections in the split layout at 2^12 (as P2P's small chunks would), decoded by
// uzipGpuDecompressReduceLean and by uzipGpuDecompressReduce (its out-of-line lean path), each checked; the
// lean entry must refuse a default stream (INVALID_ARG).
static void decode_reduce_case(int dtype, int op, uint64_t count, int kind, uint32_t misalign, bool lean = false) {
  g_cases++;
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  const uint32_t flags = lean ? UZIP_FLAG_LEAN | UZIP_FLAG_SPLIT : 0, log2 = lean ? 12 : 0;
  std::vector<uint8_t> a, o;
  make_data(a, dtype, count, kind, count * 31 + op);
  make_data(o, dtype, count, kind == D_SPECIAL ? D_SPECIAL : D_GAUSS, count * 17 + op + 5);
  uint64_t bound = 0, bytes = 0;
  CK(uzipMaxCompressedSize(dtype, count, flags, log2, &bound));
  std::vector<uint8_t> cmp(bound), want(count * w), got(count * w + 2 * w);
  CK(uzipCompressCpu(a.data(), count, dtype, flags, log2, cmp.data(), bound, &bytes));
  const float s = coll_op_scale(dtype, op);
  for (uint64_t i = 0; i < count; i++)
    coll_store(want.data(), i, w, coll_reduce_elem_s(coll_load(a.data(), i, w), coll_load(o.data(), i, w), dtype, op, s));
  // Device: other and dst `misalign` elements past 256-aligned bases, dst between two guard elements.
  g_cmp.alloc(bound);
  g_in.alloc(count * w + 64);
  g_out.alloc(count * w + 64);
  const uint64_t oth = g_in.p + misalign * w, dst = g_out.p + misalign * w + w;
  CK(uzipCudaMemcpyFromHost(g_cmp.p, cmp.data(), bytes, g_stream));
  CK(uzipCudaMemcpyFromHost(oth, o.data(), count * w, g_stream));
  CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 64, g_stream));
  char why[160] = "";
  int32_t st = -1;
  if (lean) {  // the default entry first (its out-of-line lean path), checked like the lean entry below
    CK(uzipGpuDecompressReduce(g_ctx, g_cmp.p, bytes, dst, oth, count, dtype, op, 0, g_stream));
    CK(uzipStreamSynchronize(g_stream));
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    CK(uzipCudaMemcpyToHost(got.data(), dst - w, count * w + 2 * w, g_stream));
    if (st) snprintf(why, sizeof why, "the default entry gave %s", uzipStatusName(st));
    else guarded_diff(got, want, count, w, why, sizeof why);
    CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 64, g_stream));
  } else {  // the lean entry first: it must refuse the stream (the default one then writes all of dst)
    CK(uzipGpuDecompressReduceLean(g_ctx, g_cmp.p, bytes, dst, oth, count, dtype, op, 0, g_stream));
    CK(uzipStreamSynchronize(g_stream));
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    if (st != UZIP_ERR_INVALID_ARG) snprintf(why, sizeof why, "the lean entry gave %s", uzipStatusName(st));
  }
  CK((lean ? uzipGpuDecompressReduceLean : uzipGpuDecompressReduce)(g_ctx, g_cmp.p, bytes, dst, oth, count, dtype, op,
                                                                    0, g_stream));
  CK(uzipStreamSynchronize(g_stream));
  st = -1;
  CK(uzipGpuCodecLastStatus(g_ctx, &st));
  CK(uzipCudaMemcpyToHost(got.data(), dst - w, count * w + 2 * w, g_stream));
  if (!why[0] && st) snprintf(why, sizeof why, "status %s", uzipStatusName(st));
  else if (!why[0]) guarded_diff(got, want, count, w, why, sizeof why);
  if (why[0]) {
    g_fail++;
    printf("FAIL decode-reduce%s dtype=%d op=%d n=%llu kind=%s misalign=%u: %s\n", lean ? " (lean)" : "", dtype, op,
           (unsigned long long)count, kDataNames[kind], misalign, why);
  }
}

static void decode_reduce_cases(bool quick, bool tiny) {
  const int before = g_fail, cases0 = g_cases;
  for (int dtype = 1; dtype < UZIP_DTYPE_COUNT; dtype++) {
    const bool wide = dtype == 1 || dtype == 2 || dtype == 3;  // the premultiplied avg fold
    for (int op : {0, 1, 2, 3, wide ? COLL_OP_PREMUL_BASE + 2 : 4, wide ? COLL_OP_PREMUL_BASE + 7 : 0})
      for (uint64_t n : {(uint64_t)1, (uint64_t)1025, (uint64_t)50001, (uint64_t)262147})
        for (int kind : {D_GAUSS, D_SPECIAL}) {
          if ((quick && n > 50001 && kind == D_SPECIAL) || (tiny && n > 50001)) continue;
          for (bool lean : {false, true}) {
            decode_reduce_case(dtype, op, n, kind, 0, lean);
            if (n == 50001) decode_reduce_case(dtype, op, n, kind, 1, lean);
          }
        }
  }
  if (!tiny) {
    for (bool lean : {false, true}) {
      decode_reduce_case(1, 0, (uint64_t)8 << 20, D_GAUSS, 0, lean);  // 16 MiB bf16, every SM
      decode_reduce_case(3, COLL_OP_PREMUL_BASE + 2, (uint64_t)4 << 20, D_GAUSS, 0, lean);
    }
  }
  // The stream must hold what the call says.
  std::vector<uint8_t> d;
  make_data(d, 1, 1000, D_GAUSS, 3);
  uint64_t bound = 0, bytes = 0;
  CK(uzipMaxCompressedSize(1, 1000, 0, 0, &bound));
  std::vector<uint8_t> cmp(bound);
  CK(uzipCompressCpu(d.data(), 1000, 1, 0, 0, cmp.data(), bound, &bytes));
  g_cmp.alloc(bound);
  g_out.alloc(4096);
  CK(uzipCudaMemcpyFromHost(g_cmp.p, cmp.data(), bytes, g_stream));
  CK(uzipCudaMemsetAsync(g_out.p, 0, 4096, g_stream));
  // (999 elements: dst is too small for the stream, which the decoder reports first.)
  for (auto bad : {std::tuple<int, uint64_t, int>{1, 999, UZIP_ERR_BUFFER_TOO_SMALL}, {1, 1001, UZIP_ERR_INVALID_ARG},
                   {2, 1000, UZIP_ERR_INVALID_ARG}}) {
    g_cases++;
    CK(uzipGpuDecompressReduce(g_ctx, g_cmp.p, bytes, g_out.p, g_out.p + 2048, std::get<1>(bad), std::get<0>(bad), 0, 0,
                               g_stream));
    CK(uzipStreamSynchronize(g_stream));
    int32_t st = 0;
    CK(uzipGpuCodecLastStatus(g_ctx, &st));
    if (st != std::get<2>(bad)) {
      g_fail++;
      printf("FAIL decode-reduce with dtype %d count %llu for a bf16 stream of 1000: status %s\n", std::get<0>(bad),
             (unsigned long long)std::get<1>(bad), uzipStatusName(st));
    }
  }
  g_cases++;
  if (uzipGpuDecompressReduce(g_ctx, g_cmp.p, bytes, g_out.p, g_out.p, 1000, 0, 0, 0, g_stream) != UZIP_ERR_INVALID_ARG ||
      uzipGpuDecompressReduce(g_ctx, g_cmp.p, bytes, g_out.p, g_out.p + 1024, 1000, 1, 9, 0, g_stream) != UZIP_ERR_INVALID_ARG ||
      uzipGpuDecompressReduce(g_ctx, g_cmp.p, bytes, g_out.p, g_out.p + 1998, 1000, 1, 0, 0, g_stream) != UZIP_ERR_INVALID_ARG) {
    g_fail++;
    printf("FAIL decode-reduce accepted the bytes dtype, op 9 or overlapping dst and other\n");
  }
  printf("decode-reduce: %d cases, %d failures\n", g_cases - cases0, g_fail - before);
}

// The collectives backend's reduce (coll_reduce_gpu.cuh, the code coll_backend_gpu.cu launches): out = a op b
// must equal coll_reduce.h on the CPU, bit for bit, for every dtype and op, special values, tails (counts
// that are not a multiple of a vector), unaligned pointers (the element kernel) and out == a (in place).
static void backend_reduce_case(int dtype, int op, uint64_t count, int kind, uint32_t misalign, bool inPlace) {
  g_cases++;
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  std::vector<uint8_t> a, b, want(count * w), got(count * w + 2 * w);
  make_data(a, dtype, count, kind, count * 13 + op);
  make_data(b, dtype, count, kind == D_SPECIAL ? D_SPECIAL : D_GAUSS, count * 7 + op + 3);
  const float s = coll_op_scale(dtype, op);
  for (uint64_t i = 0; i < count; i++)
    coll_store(want.data(), i, w, coll_reduce_elem_s(coll_load(a.data(), i, w), coll_load(b.data(), i, w), dtype, op, s));
  // a and b each 256 bytes (plus `misalign` elements) into a region of their own, guard bytes around both.
  const uint64_t region = (count * w + 511u) / 256u * 256u;
  g_in.alloc(2 * region);
  g_out.alloc(count * w + 64);
  const uint64_t pa = g_in.p + 256 + misalign * w, pb = g_in.p + region + 256 + misalign * w;
  const uint64_t out = inPlace ? pa : g_out.p + misalign * w + w;
  CK(uzipCudaMemsetAsync(g_in.p, 0x5A, 2 * region, g_stream));
  CK(uzipCudaMemcpyFromHost(pa, a.data(), count * w, g_stream));
  CK(uzipCudaMemcpyFromHost(pb, b.data(), count * w, g_stream));
  CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 64, g_stream));
  const cudaError_t e = uzip::coll_reduce_launch((void*)out, (const void*)pa, (const void*)pb, count, dtype, op,
                                                 (cudaStream_t)(uintptr_t)g_stream, g_sms);
  CK(uzipStreamSynchronize(g_stream));
  CK(uzipCudaMemcpyToHost(got.data(), out - w, count * w + 2 * w, g_stream));
  char why[160] = "";
  if (e != cudaSuccess) snprintf(why, sizeof why, "launch: %s", cudaGetErrorString(e));
  else guarded_diff(got, want, count, w, why, sizeof why);
  if (why[0]) {
    g_fail++;
    printf("FAIL backend reduce dtype=%d op=%d n=%llu kind=%s misalign=%u inPlace=%d: %s\n", dtype, op,
           (unsigned long long)count, kDataNames[kind], misalign, (int)inPlace, why);
  }
}

static void backend_reduce_cases(bool tiny) {
  const int before = g_fail, cases0 = g_cases;
  for (int dtype = 1; dtype < UZIP_DTYPE_COUNT; dtype++) {
    const bool wide = dtype == 1 || dtype == 2 || dtype == 3;  // the premultiplied avg fold
    for (int op : {0, 1, 2, 3, 4, wide ? COLL_OP_PREMUL_BASE + 3 : 0})
      for (uint64_t n : {(uint64_t)1, (uint64_t)17, (uint64_t)50001, (uint64_t)(tiny ? 4099 : 1000003)})
        for (int kind : {D_GAUSS, D_SPECIAL}) {
          backend_reduce_case(dtype, op, n, kind, 0, false);
          if (n == 50001) {
            backend_reduce_case(dtype, op, n, kind, 1, false);
            backend_reduce_case(dtype, op, n, kind, 0, true);
          }
        }
  }
  // avg's pre-multiplication (coll_premul_launch), out of place and in place.
  for (int dtype = 1; dtype < UZIP_DTYPE_COUNT; dtype++)
    for (int nranks : {2, 3, 7})
      for (int kind : {D_GAUSS, D_SPECIAL})
        for (bool inPlace : {false, true}) {
          g_cases++;
          const uint64_t count = 50001;
          const uint32_t w = uzip_dtype_width((uint32_t)dtype);
          std::vector<uint8_t> x, want(count * w), got(count * w);
          make_data(x, dtype, count, kind, 77 + nranks);
          for (uint64_t i = 0; i < count; i++)
            coll_store(want.data(), i, w, coll_premul_avg(coll_load(x.data(), i, w), dtype, nranks));
          g_in.alloc(count * w);
          g_out.alloc(count * w);
          CK(uzipCudaMemcpyFromHost(g_in.p, x.data(), count * w, g_stream));
          const uint64_t out = inPlace ? g_in.p : g_out.p;
          const cudaError_t e = uzip::coll_premul_launch((void*)out, (const void*)g_in.p, count, dtype, nranks,
                                                         (cudaStream_t)(uintptr_t)g_stream, g_sms);
          CK(uzipCudaMemcpyToHost(got.data(), out, count * w, g_stream));
          const uint64_t d = first_diff(got.data(), want.data(), count * w);
          if (e != cudaSuccess || d != count * w) {
            g_fail++;
            printf("FAIL premul avg dtype=%d nranks=%d kind=%s inPlace=%d: %s\n", dtype, nranks, kDataNames[kind],
                   (int)inPlace, e != cudaSuccess ? cudaGetErrorString(e) : "bytes differ");
          }
        }
  printf("backend reduce and premul: %d cases, %d failures\n", g_cases - cases0, g_fail - before);
}

// Copies to and from the host name a device address that no allocation holds: an error, not a host read
// or write of that address (cudaMemcpyDefault took it for host memory and the process crashed).
static void bad_copy_cases() {
  g_cases++;
  std::vector<uint8_t> h(64, 1);
  const int a = uzipCudaMemcpyToHost(h.data(), 16, 32, g_stream);
  const int b = uzipCudaMemcpyFromHost(16, h.data(), 32, g_stream);
  if (a == UZIP_OK || b == UZIP_OK) {
    g_fail++;
    printf("FAIL copies to or from device address 16: %s / %s\n", uzipStatusName(a), uzipStatusName(b));
  }
  // The stream is still usable.
  g_out.alloc(64);
  if (uzipCudaMemcpyFromHost(g_out.p, h.data(), 32, g_stream) || uzipCudaMemcpyToHost(h.data(), g_out.p, 32, g_stream)) {
    g_fail++;
    printf("FAIL a good copy after the bad ones: %s\n", uzipLastError());
  }
}

// Lane streams (flags SPLIT | LANES, with and without the checksum): every dtype and data kind at edge
// sizes and the lane block sizes; an input off its 16-byte alignment; SM budgets; large tensors; the SM
// gate under occupation; damaged streams. GPU bytes must equal the CPU codec's, and every decode path
// (no dtype, the dtype, another dtype, the lanes decoder of g_ctxLanes) must give the input back.
static void lanes_cases(bool quick, bool tiny, bool big) {
  const int before = g_fail, cases0 = g_cases;
  const uint32_t LF = UZIP_FLAG_SPLIT | UZIP_FLAG_LANES;
  const uint64_t sizes[] = {0, 1, 2, 7, 8, 9, 17, 255, 256, 257, 1023, 1024, 1025, 8191, 8192, 8193, 16383, 16384,
                            16385, 50001, 262147};
  for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
    for (uint64_t sz : sizes)
      for (int kind = 0; kind < D_KINDS; kind++) {
        if (quick && kind % 2 && sz > 1025) continue;
        if (tiny && (sz > 50001 || (kind > 2 && sz > 1025) || dtype == 5)) continue;
        run_case(dtype, sz, kind, LF | (uint32_t)((sz + kind) & 1u), 0, false);
      }
  for (uint32_t log2 : {10u, 12u, 13u, 14u})
    for (int dtype : {1, 2, 3, 4})
      for (int kind : {D_GAUSS, D_UNIFORM, D_INTLIKE, D_RANDOM, D_SPECIAL}) {
        if (tiny && log2 != 14) continue;
        for (uint64_t sz : {(uint64_t)1 << log2, ((uint64_t)3 << log2) + 77, (uint64_t)200003})
          run_case(dtype, sz, kind, LF | (uint32_t)(sz & 1u), log2, false);
      }
  for (g_srcShift = 1; g_srcShift <= 2; g_srcShift++)  // inputs off 16-byte alignment
    for (int dtype : {1, 3, 4})
      run_case(dtype, 3 * 16384 + 9, D_GAUSS, LF | 1u, 14, false);
  // The same for the default coding, at sizes the library gives to warp pairs: the two-byte pair kernel
  // takes unaligned groups and partial last groups out of line (hist_group_rare), both layouts.
  for (g_srcShift = 1; g_srcShift <= 2; g_srcShift++)
    for (int dtype : {1, 2, 3, 4})
      for (uint32_t fl : {0u, (uint32_t)UZIP_FLAG_SPLIT})
        run_case(dtype, 3 * 8192 + 9, D_GAUSS, fl, 0, false);
  g_srcShift = 0;
  if (!tiny) {
    for (int sms : {1, 3, 16}) {
      CK(uzipGpuCodecSetMaxSms(g_ctx, sms));
      run_case(1, 3000017, D_GAUSS, LF | 1u, 14, true);
      run_case(3, 1000003, D_UNIFORM, LF, 13, true);
    }
    CK(uzipGpuCodecSetMaxSms(g_ctx, 0));
    for (int dtype : {1, 2, 3, 4})
      for (int kind : {D_GAUSS, D_UNIFORM, D_SPARSE, D_SPECIAL})
        run_case(dtype, (uint64_t)4 << 20, kind, LF | (uint32_t)(kind & 1), 0, true);
    run_case(1, (uint64_t)64 << 20, D_GAUSS, LF, 14, true);
    run_case(3, (uint64_t)32 << 20, D_UNIFORM, LF | 1u, 14, true);
    occupied_case(1, (uint64_t)16 << 20, LF, 14);
    occupied_case(4, (uint64_t)8 << 20, LF | 1u, 13);
  }
  if (big) {
    run_case(1, (uint64_t)128 << 20, D_GAUSS, LF | 1u, 14, true);  // 256 MiB bf16
    run_case(3, (uint64_t)64 << 20, D_GAUSS, LF, 14, true);        // 256 MiB fp32
  }
  const int trials = tiny ? 24 : quick ? 60 : 300;
  corrupt_cases(1, 50001, LF | 1u, trials, 21, 14);
  corrupt_cases(1, 3 * 16384, LF, trials, 22, 14);
  corrupt_cases(3, 20011, LF | 1u, trials, 23, 13);
  corrupt_cases(4, 70001, LF, trials, 24, 10);
  corrupt_cases(2, 40000, LF | 1u, trials, 25, 14);
  printf("lane streams: %d cases, %d failures\n", g_cases - cases0, g_fail - before);
}

// A pair stream the GPU encoder does not make (blocks of 2^16 elements: two segments a block; the default
// layout), compressed by the CPU codec and decoded by uzipGpuDecompressPairs: the data back bit for bit, or
// (default layout) UNSUPPORTED.
static void pairs_cpu_stream_case(int dtype, uint64_t count, int kind, uint32_t flags, uint32_t log2) {
  g_cases++;
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  std::vector<uint8_t> data;
  make_data(data, dtype, count, kind, count + log2);
  uint64_t bound = 0, bytes = 0;
  CK(uzipMaxCompressedSize(dtype, count, flags, log2, &bound));
  std::vector<uint8_t> cpu(bound), back(count * w + 1);
  CK(uzipCompressCpu(data.data(), count, dtype, flags, log2, cpu.data(), bound, &bytes));
  g_cmp.alloc(bound);
  g_out.alloc(count * w + 16);
  CK(uzipCudaMemcpyFromHost(g_cmp.p, cpu.data(), bytes, g_stream));
  CK(uzipCudaMemsetAsync(g_out.p, 0x5A, count * w + 16, g_stream));
  CK(uzipGpuDecompressPairs(g_ctx, g_cmp.p, bytes, g_out.p, count * w, 0, g_stream));
  CK(uzipStreamSynchronize(g_stream));
  int32_t st = -1;
  CK(uzipGpuCodecLastStatus(g_ctx, &st));
  CK(uzipCudaMemcpyToHost(back.data(), g_out.p, count * w + 1, g_stream));
  const bool split = (flags & UZIP_FLAG_SPLIT) != 0;
  const bool ok = split ? st == 0 && !memcmp(back.data(), data.data(), count * w) && back[count * w] == 0x5A
                        : st == UZIP_ERR_UNSUPPORTED;
  if (!ok) {
    g_fail++;
    printf("FAIL pairs cpu stream dtype=%d n=%llu kind=%s flags=%u log2=%u: status %s%s\n", dtype,
           (unsigned long long)count, kDataNames[kind], flags, log2, uzipStatusName(st),
           split && !st ? ", data differs" : "");
  }
}

// Pair coding (FORMAT.md "Pair coding"; the GPU encoder takes the split layout and blocks of up to 2^15):
// bf16 and fp32 over edge sizes, every data kind (random bits give RAW blocks, special patterns escapes,
// constants CONST), block sizes 2^10..2^15, inputs off their 16-byte alignment, SM budgets and large tensors.
// GPU bytes must equal the CPU codec's, the CPU must decode them, the GPU pair decoder must decode the CPU's
// (into aligned and unaligned destinations; 2^16 blocks too) and the other decoders refuse them; damaged
// pair streams must give an error or (no checksum) wrong data, never a write outside the destination.
// Lean sections (flag 0x10, FORMAT.md "Lean sections"): both table forms; in the split layout seeded segments,
// the split plane without their seed bytes (fused by the histogram pass, or element by element from an
// unaligned input) and seed sections after RAW and CONST symbol planes; every dtype and data kind, one- and
// multi-segment blocks, segments too short or too ragged to seed, damaged streams.
static void lean_cases(bool quick, bool tiny) {
  const int before = g_fail, cases0 = g_cases;
  const uint64_t sizes[] = {1, 31, 32, 63, 64, 96, 1025, 4096, 4096 + 32, 16384, 50001, 262147};
  for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
    for (uint32_t flags : {0x10u, 0x12u, 0x13u})
      for (uint64_t sz : sizes)
        for (int kind = 0; kind < D_KINDS; kind++) {
          if (quick && kind % 2 && sz > 1025) continue;
          if (tiny && (sz > 50001 || (kind > 2 && sz > 1025) || dtype == 5)) continue;
          run_case(dtype, sz, kind, flags, 0, false);
        }
  if (!tiny)
    for (uint32_t log2 : {10u, 12u, 13u, 15u, 16u})
      for (int dtype : {1, 2, 3})
        for (int kind : {D_GAUSS, D_RANDOM, D_CONST, D_SPECIAL})
          for (uint64_t sz : {(uint64_t)1 << log2, ((uint64_t)1 << log2) + 64, ((uint64_t)3 << log2) + 32,
                              (uint64_t)UZIP_ANS_SEG_SYMS + 64})
            run_case(dtype, sz, kind, 0x12u | (uint32_t)(sz & 1u), log2, false);
  for (g_srcShift = 1; g_srcShift <= 2; g_srcShift++)  // inputs off 16-byte alignment: no fused plane writes
    for (int dtype : {1, 3})
      for (uint64_t sz : {(uint64_t)4096, (uint64_t)50001, (uint64_t)3 * 65536 + 64})
        run_case(dtype, sz, D_GAUSS, 0x12u, sz > 65536 ? 16u : 0u, false);
  g_srcShift = 0;
  if (!tiny) {
    run_case(1, (uint64_t)8 << 20, D_GAUSS, 0x12u, 12, true);  // a P2P-sized call in 2^12 blocks
    run_case(3, (uint64_t)4 << 20, D_UNIFORM, 0x13u, 12, true);
    run_case(2, (uint64_t)4 << 20, D_SPECIAL, 0x12u, 0, true);
  }
  for (int dtype : {1, 3}) corrupt_cases(dtype, 5000, 0x13u, tiny ? 20 : quick ? 60 : 200, 91, 10);
  corrupt_cases(2, 4096, 0x11u, tiny ? 20 : 60, 92, 12);
  printf("lean sections: %d cases, %d failures\n", g_cases - cases0, g_fail - before);
}

static void pairs_cases(bool quick, bool tiny) {
  const int before = g_fail, cases0 = g_cases;
  const uint32_t PF = UZIP_FLAG_SPLIT | UZIP_FLAG_PAIRS;
  const uint64_t sizes[] = {0, 1, 2, 3, 17, 31, 33, 63, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 16383, 16384,
                            16385, 50001, 262147};
  for (int dtype : {1, 3})
    for (uint64_t sz : sizes)
      for (int kind = 0; kind < D_KINDS; kind++) {
        if (quick && kind % 2 && sz > 1025) continue;
        if (tiny && (sz > 50001 || (kind > 2 && sz > 1025))) continue;
        run_case(dtype, sz, kind, PF | (uint32_t)((sz + kind) & 1u), 0, false);
      }
  for (uint32_t log2 : {10u, 12u, 13u, 14u, 15u})
    for (int dtype : {1, 3})
      for (int kind : {D_GAUSS, D_UNIFORM, D_INTLIKE, D_RANDOM, D_SPECIAL}) {
        if (tiny && log2 != 14 && log2 != 15) continue;
        for (uint64_t sz : {(uint64_t)1 << log2, ((uint64_t)3 << log2) + 77, (uint64_t)200003})
          run_case(dtype, sz, kind, PF | (uint32_t)(sz & 1u), log2, false);
      }
  for (g_srcShift = 1; g_srcShift <= 3; g_srcShift++)  // inputs off 16-byte alignment
    for (int dtype : {1, 3})
      run_case(dtype, 3 * 16384 + 9, D_GAUSS, PF | 1u, 14, false);
  g_srcShift = 0;
  if (!tiny) {
    for (int sms : {1, 3, 16}) {
      CK(uzipGpuCodecSetMaxSms(g_ctx, sms));
      run_case(1, 3000017, D_GAUSS, PF | 1u, 14, true);
      run_case(3, 1000003, D_UNIFORM, PF, 13, true);
    }
    CK(uzipGpuCodecSetMaxSms(g_ctx, 0));
    for (int dtype : {1, 3})
      for (int kind : {D_GAUSS, D_UNIFORM, D_SPARSE, D_SPECIAL})
        run_case(dtype, (uint64_t)4 << 20, kind, PF | (uint32_t)(kind & 1), 0, true);
    run_case(1, (uint64_t)64 << 20, D_GAUSS, PF, 15, true);
    run_case(3, (uint64_t)32 << 20, D_UNIFORM, PF | 1u, 14, true);
  }
  // Refused: the default layout and 2^16 blocks (the CPU codec takes both).
  uint64_t bound = 0;
  CK(uzipMaxCompressedSize(1, 1 << 20, UZIP_FLAG_PAIRS, 16, &bound));
  g_in.alloc(2u << 20);
  g_cmp.alloc(bound);
  for (uint32_t fl : {(uint32_t)UZIP_FLAG_PAIRS, PF})
    if (uzipGpuCompress(g_ctx, g_in.p, 1 << 20, 1, fl, fl == PF ? 16u : 14u, g_cmp.p, bound, 0, g_stream) !=
        UZIP_ERR_UNSUPPORTED) {
      g_fail++;
      printf("FAIL pairs flags %u: the GPU encoder did not refuse them\n", fl);
    }
  // Symbols uniform over 17 values: ~4 bits an element, so a group of 8 pair steps takes ~128 of the word
  // ring's words and often more (real weights' blocks did; the decoder's first ring then read past its copy
  // of the first quarters, bench/results/h200-2026-12-04T1853-session32/1-pair-decoder).
  g_wideExp = true;
  for (int dtype : {1, 3})
    for (uint32_t log2 : {13u, 14u, 15u})
      for (uint64_t sz : {(uint64_t)3 * 16384 + 5, (uint64_t)1 << 20})
        if (!tiny || sz < 100000) run_case(dtype, sz, D_GAUSS, PF | (uint32_t)(sz & 1u), log2, false);
  g_wideExp = false;
  for (int dtype : {1, 3})
    for (int kind : {D_GAUSS, D_UNIFORM, D_RANDOM, D_SPECIAL}) {
      pairs_cpu_stream_case(dtype, 3 * 65536 + 5, kind, PF | 1u, 16);
      pairs_cpu_stream_case(dtype, 65536, kind, PF, 16);
      pairs_cpu_stream_case(dtype, 70001, kind, UZIP_FLAG_PAIRS, 14);
    }
  const int trials = tiny ? 24 : quick ? 60 : 300;
  corrupt_cases(1, 50001, PF | 1u, trials, 31, 14);
  corrupt_cases(1, 3 * 16384, PF, trials, 32, 14);
  corrupt_cases(3, 20011, PF | 1u, trials, 33, 13);
  corrupt_cases(1, 2 * 65536 + 3, PF | 1u, trials, 34, 16);
  corrupt_cases(3, 40000, PF, trials, 35, 15);
  printf("pair coding: %d cases, %d failures\n", g_cases - cases0, g_fail - before);
}

int main(int argc, char** argv) {
  bool quick = false, big = false, tiny = false, occupiedOnly = false, reduceOnly = false, lanesOnly = false,
       seg2Only = false, pairsOnly = false, leanOnly = false, bytesOnly = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) quick = true;
    if (!strcmp(argv[i], "--tiny")) tiny = quick = true;  // for compute-sanitizer: small cases only
    if (!strcmp(argv[i], "--big")) big = true;
    if (!strcmp(argv[i], "--occupied")) occupiedOnly = true;  // only the occupied-SM cases
    if (!strcmp(argv[i], "--reduce")) reduceOnly = true;      // only the decode-reduce and reduce cases
    if (!strcmp(argv[i], "--lanes")) lanesOnly = true;        // only the lane-stream cases
    if (!strcmp(argv[i], "--seg2")) seg2Only = true;          // only small 2^15 blocks (two segments)
    if (!strcmp(argv[i], "--pairs")) pairsOnly = true;        // only the pair-coding cases
    if (!strcmp(argv[i], "--lean")) leanOnly = true;          // only the lean-section cases
    // Only the default coding's round trips and damaged streams (the last part of a full run): lets a sanitizer
    // run of --tiny, too long for one device call, go in parts (--reduce, --lanes, --pairs, --lean, --bytes).
    if (!strcmp(argv[i], "--bytes")) bytesOnly = true;
  }
  int32_t n = 0;
  CK(uzipCudaDeviceCount(&n));
  if (n == 0) {
    printf("SKIP gpu_check: no CUDA device (%s)\n", uzipLastError());
    return 0;
  }
  data_salt_from_args(argc, argv, "gpu_check");
  char name[256];
  uint64_t info[8];
  CK(uzipCudaDeviceInfo(0, name, sizeof name, info));
  printf("device: %s, %llu SMs, driver %llu\n", name, (unsigned long long)info[0], (unsigned long long)info[6]);
  g_sms = (int)info[0];
  CK(uzipStreamCreate(0, &g_stream));
  CK(uzipGpuCodecCreate(0, 0, &g_ctx));
  // --seg2, for compute-sanitizer: blocks of two ANS segments (2^15) only, every dtype, both layouts,
  // Gaussian and random data, one to three blocks. Under UZIP_GPU_ENC_VARIANT=0 or 1 the lone-warp REV
  // kernels code them (the library's own choice for calls this small is the warp pairs).
  if (seg2Only) {
    for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
      for (int kind : {D_GAUSS, D_RANDOM})
        for (uint64_t sz : {(uint64_t)32768 + 17, (uint64_t)3 * 32768 + 5})
          for (uint32_t flags : {0u, 3u}) run_case(dtype, sz, kind, flags, 15u, false);
    printf("%s: %d two-segment cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
    return g_fail ? 1 : 0;
  }
  if (pairsOnly) {
    pairs_cases(quick, tiny);
    printf("%s: %d pair-coding cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
    return g_fail ? 1 : 0;
  }
  if (leanOnly) {
    lean_cases(quick, tiny);
    printf("%s: %d lean-section cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
    return g_fail ? 1 : 0;
  }
  if (!bytesOnly) {  // --bytes: straight to the default coding's cases below
    // Not under compute-sanitizer (--tiny), which counts the API errors they provoke.
    if (!tiny && !lanesOnly) bad_copy_cases();
    if (!lanesOnly) decode_reduce_cases(quick, tiny);
    if (!lanesOnly) backend_reduce_cases(tiny);
    if (reduceOnly) {
      printf("%s: %d cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
      return g_fail ? 1 : 0;
    }
    // Not in the sanitizer's --tiny run: its tools may serialize kernels, and the test needs two at once.
    if (!tiny && !reduceOnly && !lanesOnly) {
      const int before = g_fail;
      occupied_case(1, (uint64_t)16 << 20, UZIP_FLAG_SPLIT, 13);  // a P2P chunk of 32 MiB in 2^13 blocks
      occupied_case(1, (uint64_t)8 << 20, 0, 0);
      occupied_case(3, (uint64_t)4 << 20, 1, 0);
      // No budget: one round of 2^13 blocks (by warp index when decoded), then 4096 blocks of 2^14 (tickets).
      occupied_case(1, (uint64_t)16 << 20, UZIP_FLAG_SPLIT, 13, false);
      occupied_case(1, (uint64_t)64 << 20, UZIP_FLAG_SPLIT, 14, false);
      printf("occupied SMs: %d failures\n", g_fail - before);
      if (occupiedOnly) {
        printf("%s: %d cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
        return g_fail ? 1 : 0;
      }
    }

    if (!reduceOnly) {
      lanes_cases(quick, tiny, big);
      if (!lanesOnly) pairs_cases(quick, tiny);
      if (!lanesOnly) lean_cases(quick, tiny);
      if (lanesOnly) {
        printf("%s: %d round-trip cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
        return g_fail ? 1 : 0;
      }
    }
  }
  const uint64_t sizes[] = {0, 1, 2, 3, 17, 31, 33, 1023, 1024, 1025, 16383, 16384, 16385, 50001, 262147};
  for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
    for (uint32_t flags = 0; flags < 4; flags++)
      for (uint64_t sz : sizes)
        for (int kind = 0; kind < D_KINDS; kind++) {
          if (quick && kind % 2 && sz > 1025) continue;
          if (tiny && (sz > 50001 || (kind > 2 && sz > 1025) || dtype == 5)) continue;
          run_case(dtype, sz, kind, flags, 0, false);
        }
  printf("edge sizes: %d cases, %d failures\n", g_cases, g_fail);
  // Other block sizes, and the persistent loop at a small grid.
  if (!tiny) for (uint32_t log2 : {10u, 12u, 13u, 14u, 15u, 16u})  // 0 (above) is 13 or 14 by size and dtype
    for (int dtype : {1, 2, 3, 4})
      for (int kind : {D_GAUSS, D_INTLIKE, D_RANDOM})
        for (uint64_t sz : {(uint64_t)1 << log2, ((uint64_t)1 << log2) + 1, (uint64_t)200003})
          run_case(dtype, sz, kind, (uint32_t)(sz & 3), log2, false);
  if (!tiny) for (int sms : {1, 3}) {
    CK(uzipGpuCodecSetMaxSms(g_ctx, sms));
    run_case(1, 3000017, D_GAUSS, 1, 0, true);
    run_case(3, 1000003, D_INTLIKE, 0, 12, true);
  }
  CK(uzipGpuCodecSetMaxSms(g_ctx, 0));
  printf("block sizes and small grids: %d cases, %d failures\n", g_cases, g_fail);
  // Multi-segment blocks (log2Block 16 and 15, beside the default): symbol planes of 2..4 ANS segments,
  // which the GPU codes one after another and stages as one finished section; every dtype and data
  // kind, sizes around whole blocks.
  if (!tiny) {
    const int before = g_fail;
    for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
      for (int kind = 0; kind < D_KINDS; kind++) {
        for (uint64_t sz : {(uint64_t)65535, (uint64_t)65536, (uint64_t)65537, (uint64_t)3 * 65536 + 5,
                            (uint64_t)16384 * 3 + 7})
          run_case(dtype, sz, kind, (uint32_t)(kind + dtype + sz) & 3u, kind & 1 ? 16u : 0u, false);
        if (!quick || dtype == 1 || dtype == 3)
          for (uint64_t sz : {(uint64_t)32769, (uint64_t)3 * 32768 + 5})
            run_case(dtype, sz, kind, (uint32_t)kind & 3u, 15u, false);
      }
    for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
      for (int kind : {D_GAUSS, D_UNIFORM, D_SPARSE, D_SPECIAL}) {
        if (quick && !((dtype == 1 || dtype == 3) && kind <= D_UNIFORM)) continue;
        run_case(dtype, (uint64_t)4 << 20, kind, (uint32_t)dtype & 3u, 0, true);
      }
    run_case(1, (uint64_t)16 << 20, D_GAUSS, 1, 0, true);
    run_case(3, (uint64_t)16 << 20, D_UNIFORM, 0, 0, true);
    if (!quick) run_case(4, (uint64_t)16 << 20, D_SPARSE, 2, 0, true);
    run_case(1, (uint64_t)64 << 20, D_GAUSS, 0, 0, true);
    if (!quick) run_case(3, (uint64_t)64 << 20, D_RANDOM, 1, 0, true);
    g_mixSeg = true;  // one noisy segment per block among smooth ones
    for (int dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
      for (int kind : {D_GAUSS, D_SPARSE, D_CONST})
        for (uint64_t sz : {(uint64_t)65536, (uint64_t)5 * 65536 + 40000}) {
          run_case(dtype, sz, kind, (uint32_t)dtype & 3u, 16u, false);
          run_case(dtype, sz, kind, (uint32_t)(dtype + 1) & 3u, 15u, false);
        }
    g_mixSeg = false;
    printf("multi-segment blocks: %d failures\n", g_fail - before);
  }
  // The remainder plane's sample (default layout; the split layout has no remainder modes): both ways of
  // settling it, at three block sizes, whole blocks and a tail (which may be shorter than the sample).
  {
    const int before = g_fail;
    for (g_remSample = 1; g_remSample <= 2; g_remSample++)
      for (int dtype : {1, 2, 3})
        for (uint32_t log2 : {13u, 14u, 15u})
          for (uint64_t sz : {(uint64_t)4 << log2, ((uint64_t)3 << log2) + 700, ((uint64_t)2 << log2) + 5000})
            if (!tiny || (log2 == 14 && dtype != 2))
              run_case(dtype, sz, D_GAUSS, (uint32_t)(sz & 1u), log2, false);
    g_remSample = 0;
    printf("remainder samples: %d failures\n", g_fail - before);
  }
  // Large tensors.
  if (!tiny) run_case(1, (uint64_t)8 << 20, D_GAUSS, 0, 0, true);
  if (!tiny) {
    // About one round of blocks of the one-round decoder (choose_decoder in cuda/gpu_codec.cu: 16 warps
    // per SM), which decodes these when given the dtype.
    run_case(1, ((uint64_t)g_sms * 16 - 100) << 14, D_UNIFORM, 2, 0, true);
    if (!quick) run_case(4, ((uint64_t)g_sms * 12) << 14, D_GAUSS, 0, 0, true);
    // Two rounds and more of the default decoder's warps (20 per SM on an H200), which the library decodes
    // in the compact layout when given a one- or two-byte dtype (uzip_dec_kernel in cuda/dec_variant.h).
    run_case(1, ((uint64_t)g_sms * 40 + 100) << 14, D_GAUSS, 2, 0, true);
    if (!quick) run_case(2, ((uint64_t)g_sms * 40 + 7) << 14, D_UNIFORM, 0, 0, true);
    if (!quick) run_case(4, ((uint64_t)g_sms * 48 + 1) << 14, D_GAUSS, 2, 0, true);
    run_case(3, (uint64_t)4 << 20, D_GAUSS, 1, 0, true);
    run_case(2, (uint64_t)8 << 20, D_UNIFORM, 2, 0, true);
    run_case(4, (uint64_t)16 << 20, D_GAUSS, 3, 0, true);
  }
  if (big) {
    run_case(1, (uint64_t)128 << 20, D_GAUSS, 1, 0, true);  // 256 MiB bf16
    run_case(3, (uint64_t)64 << 20, D_GAUSS, 0, 0, true);   // 256 MiB fp32
    // Calls of many rounds of blocks, which the library compresses with encoder variant 1 (launch_compress
    // in cuda/gpu_codec.cu: 7 rounds of the 16-warps-per-SM grid for one-byte types, 15 for two-byte ones).
    const uint64_t warps16 = (uint64_t)g_sms * 16;
    run_case(4, (7 * warps16 + 100) << 14, D_GAUSS, 0, 0, true);
    run_case(1, (15 * warps16 + 100) << 14, D_GAUSS, 2, 0, true);
    run_case(2, (15 * warps16 + 3) << 14, D_UNIFORM, 0, 0, true);
  }
  // Bursts of rare symbols (g_burst), whole 2^14 blocks: with the library's decoder and with the compact
  // decoder forced (a context created with UZIP_GPU_DEC_VARIANT=4), in the sanitizer's --tiny run too.
  {
    const int before = g_fail;
    const uint64_t libCtx = g_ctx;
    const char* prev = getenv("UZIP_GPU_DEC_VARIANT");
    const std::string keep = prev ? prev : "";
    setenv("UZIP_GPU_DEC_VARIANT", "4", 1);
    uint64_t compactCtx = 0;
    CK(uzipGpuCodecCreate(0, 0, &compactCtx));
    if (prev) setenv("UZIP_GPU_DEC_VARIANT", keep.c_str(), 1);
    else unsetenv("UZIP_GPU_DEC_VARIANT");
    g_burst = true;
    for (uint64_t ctx : {libCtx, compactCtx}) {
      g_ctx = ctx;
      run_case(UZIP_DTYPE_FP8E4M3, (uint64_t)(tiny ? 8 : 48) << 14, D_GAUSS, 0, 14u, false);
      run_case(UZIP_DTYPE_BF16, (uint64_t)(tiny ? 8 : 48) << 14, D_GAUSS, UZIP_FLAG_SPLIT, 14u, false);
      if (!tiny) run_case(UZIP_DTYPE_BF16, (uint64_t)48 << 14, D_GAUSS, UZIP_FLAG_CHECKSUM, 14u, false);
    }
    g_burst = false;
    g_ctx = libCtx;
    CK(uzipGpuCodecDestroy(compactCtx));
    printf("rare-symbol bursts: %d failures\n", g_fail - before);
  }
  // Segment pairs (2^15-element blocks: the decoder's two-chain path) in the sanitizer's --tiny run too.
  if (tiny) {
    run_case(1, 65536, D_GAUSS, 0, 15u, false);
    run_case(3, 3 * 32768 + 5, D_UNIFORM, 2, 15u, false);
    g_mixSeg = true;
    run_case(2, 65536, D_GAUSS, 1, 16u, false);
    g_mixSeg = false;
  }
  // Damaged streams.
  int trials = tiny ? 24 : quick ? 60 : 300;
  corrupt_cases(1, 3 * 32768 + 5, 1, trials, 15, 15u);
  corrupt_cases(3, 2 * 32768, 0, trials, 16, 15u);
  corrupt_cases(1, 50001, 1, trials, 11);
  corrupt_cases(3, 20011, 3, trials, 12);
  corrupt_cases(4, 70001, 0, trials, 13);
  corrupt_cases(2, 40000, 2, trials, 14);
  // Argument errors are refused before any launch.
  int st = uzipGpuCompress(g_ctx, g_in.p, 10, 9, 0, 0, g_cmp.p, 1 << 20, 0, g_stream);
  if (st != UZIP_ERR_INVALID_ARG) { g_fail++; printf("FAIL bad dtype gave %s\n", uzipStatusName(st)); }
  st = uzipGpuCompress(g_ctx, g_in.p, 1000, 1, 0, 0, g_cmp.p, 100, 0, g_stream);
  if (st != UZIP_ERR_BUFFER_TOO_SMALL) { g_fail++; printf("FAIL small dst gave %s\n", uzipStatusName(st)); }
  for (int hint : {-3, -2, 6, 1000}) {
    st = uzipGpuDecompressAs(g_ctx, g_cmp.p, 1024, g_out.p, 1024, 0, g_stream, hint);
    if (st != UZIP_ERR_INVALID_ARG) { g_fail++; printf("FAIL decode dtype %d gave %s\n", hint, uzipStatusName(st)); }
  }
  CK(uzipGpuCodecDestroy(g_ctx));
  CK(uzipStreamDestroy(g_stream));
  printf("%s: %d round-trip cases, %d failures\n", g_fail ? "FAILED" : "PASSED", g_cases, g_fail);
  return g_fail ? 1 : 0;
}
