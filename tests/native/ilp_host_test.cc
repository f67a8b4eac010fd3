// Runs the GPU's interleaved-chain ANS cores (cuda/gpu_ilp.cuh, the very source the kernels compile) on
// the CPU: 32 host threads play the 32 lanes of a warp, and the warp intrinsics the cores use (ballot,
// shuffles, syncwarp, any) are emulated with a barrier and a shared exchange array. Checks, for planes of
// 2..4 segments (log2Block 15..16) of several dtypes and distributions:
//   - encode_segments_ilp + the payload assembly of compress_block == the CPU oracle's ANS section, byte
//     for byte (uzip_cpu::ans_encode_plane);
//   - decode_chains_ilp of the CPU's section == the original elements (staged and global flavours);
//   - damaged sections (words, states, word counts) never read outside the section (ASan) and are
//     flagged or decode to something (no crash).
// Build + run: scripts/test_ilp_host.sh (g++ -std=c++20, ASan/UBSan; no GPU, no nvcc needed).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <barrier>
#include <random>
#include <thread>
#include <vector>

// ---- host stand-ins for the CUDA dialect used by gpu_warp.cuh / gpu_ilp.cuh ----------------------------
#define __device__
#define __host__
#define __forceinline__ inline
struct uint4 { uint32_t x, y, z, w; };
static inline uint4 make_uint4(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return uint4{x, y, z, w}; }
struct HostDim3 { uint32_t x = 0, y = 0, z = 0; };
static thread_local HostDim3 threadIdx;
static inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline int __popc(uint32_t v) { return __builtin_popcount(v); }
static inline uint32_t __umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
template <typename T>
static inline T __ldg(const T* p) { return *p; }

struct HostWarp {
  std::barrier<> bar{32};
  uint64_t slot[32];
};
static HostWarp* g_warp;
static inline uint32_t host_lane() { return threadIdx.x & 31u; }
static inline uint64_t warp_exchange(uint64_t v, uint32_t from) {
  g_warp->slot[host_lane()] = v;
  g_warp->bar.arrive_and_wait();
  uint64_t r = g_warp->slot[from];
  g_warp->bar.arrive_and_wait();
  return r;
}
static inline void __syncwarp(unsigned = 0xFFFFFFFFu) { g_warp->bar.arrive_and_wait(); }
static inline uint32_t __ballot_sync(unsigned, bool pred) {
  g_warp->slot[host_lane()] = pred ? 1u : 0u;
  g_warp->bar.arrive_and_wait();
  uint32_t m = 0;
  for (uint32_t l = 0; l < 32; l++) m |= (uint32_t)g_warp->slot[l] << l;
  g_warp->bar.arrive_and_wait();
  return m;
}
static inline bool __any_sync(unsigned m, bool pred) { return __ballot_sync(m, pred) != 0; }
static inline bool __all_sync(unsigned m, bool pred) { return __ballot_sync(m, pred) == 0xFFFFFFFFu; }
template <typename T>
static inline T __shfl_xor_sync(unsigned, T v, int o) { return (T)warp_exchange((uint64_t)v, host_lane() ^ (uint32_t)o); }
template <typename T>
static inline T __shfl_up_sync(unsigned, T v, int o) {
  uint32_t l = host_lane();
  return (T)warp_exchange((uint64_t)v, l >= (uint32_t)o ? l - (uint32_t)o : l);
}
template <typename T>
static inline T __shfl_sync(unsigned, T v, int from) { return (T)warp_exchange((uint64_t)v, (uint32_t)from); }

#include "gpu_ilp.cuh"  // includes gpu_warp.cuh, uzip_format.h
#include "cpu_internal.h"

// Runs f() as the 32 lanes of one warp.
template <typename F>
static void run_warp(F f) {
  HostWarp w;
  g_warp = &w;
  std::vector<std::thread> th;
  for (uint32_t l = 0; l < 32; l++)
    th.emplace_back([l, &f] {
      threadIdx.x = l;
      f();
    });
  for (auto& t : th) t.join();
  g_warp = nullptr;
}

static int g_pass = 0, g_fail = 0;
#define CHECK(c, ...)                        \
  do {                                       \
    if (c) g_pass++;                         \
    else {                                   \
      g_fail++;                              \
      fprintf(stderr, "FAIL %d: ", __LINE__); \
      fprintf(stderr, __VA_ARGS__);          \
      fprintf(stderr, "\n");                 \
    }                                        \
  } while (0)

enum Dist { GEOM, UNIFORM, MIXED, TWO, DIST_COUNT };
static const char* kDist[] = {"geometric", "uniform", "mixed-segments", "two-symbols"};

// Elements of width W whose symbols follow dist (remainder bits random).
template <int W>
static std::vector<uint8_t> make_block(uint32_t m, int dist, uint32_t seed) {
  std::mt19937 r(seed);
  std::vector<uint8_t> b((size_t)m * W);
  for (uint32_t i = 0; i < m; i++) {
    uint32_t sym;
    const int d = dist == MIXED ? ((i / UZIP_ANS_SEG_SYMS) == 1 ? UNIFORM : TWO) : dist;
    if (d == GEOM) {
      sym = 120;
      while ((r() & 3u) && sym < 140) sym++;
    } else if (d == UNIFORM) {
      sym = r() & 0xFFu;
    } else {
      sym = (r() % 100) < 97 ? 7u : 200u;
    }
    uint32_t rem = W == 1 ? 0u : r() & (W == 2 ? 0xFFu : 0xFFFFFFu);
    uint32_t v = uzip_join(sym, rem, W);
    memcpy(&b[(size_t)i * W], &v, W);
  }
  return b;
}

template <int W>
static void check_block(uint32_t m, int dist, uint32_t seed) {
  std::vector<uint8_t> blk = make_block<W>(m, dist, seed);
  std::vector<uint8_t> sym(m);
  uint32_t counts[256] = {0}, freqs[256];
  for (uint32_t i = 0; i < m; i++) {
    uint32_t v = 0;
    memcpy(&v, &blk[(size_t)i * W], W);
    sym[i] = (uint8_t)uzip_symbol_of(v, W);
    counts[sym[i]]++;
  }
  uzip_normalize_freqs(counts, m, freqs);
  std::vector<uint8_t> cpu(uzip_cpu::ans_section_bound(m));
  const uint64_t cpuBytes = uzip_cpu::ans_encode_plane(sym.data(), m, freqs, cpu.data());
  uint32_t k = 0;
  for (int s = 0; s < 256; s++) k += freqs[s] != 0;
  const uint32_t tb = uzip_ans_table_bytes(k);

  // Encoder: the table of build_enc_table, then the cores.
  uint4 tab[256];
  uint32_t cum = 0;
  for (int s = 0; s < 256; s++) {
    uint32_t fi = freqs[s] ? freqs[s] : 1u;
    tab[s] = make_uint4(fi <= 1u ? 0xFFFFFFFFu : (uint32_t)((1ull << 32) / fi), fi, cum, fi << 21);
    cum += freqs[s];
  }
  std::vector<uint16_t> stage(ENC_SCRATCH_WORDS, 0xDEAD);
  uint32_t nws[4] = {0}, soff[4] = {0}, states[4 * 32] = {0};
  run_warp([&] { uzip_gpu::encode_segments_ilp<W>(blk.data(), m, tab, stage.data(), nws, soff, states); });
  // The payload assembly of compress_block.
  std::vector<uint8_t> gpu(cpu.size() + 64, 0);
  uint32_t off = tb;
  memcpy(gpu.data(), cpu.data(), tb);  // the table is written by write_ans_table (unchanged code)
  const uint32_t nseg = uzip_ans_nseg(m);
  for (uint32_t sg = 0; sg < nseg; sg++) {
    uint8_t* seg = gpu.data() + off;
    memcpy(seg, &nws[sg], 4);
    for (uint32_t l = 0; l < 32; l++) memcpy(seg + 4 + 4 * l, &states[sg * 32 + l], 4);
    for (uint32_t i = 0; i < nws[sg]; i++) memcpy(seg + UZIP_ANS_SEG_HEADER_BYTES + 2 * i, &stage[soff[sg] + i], 2);
    off += UZIP_ANS_SEG_HEADER_BYTES + ((2u * nws[sg] + 3u) & ~3u);
  }
  bool same = off == cpuBytes && memcmp(gpu.data(), cpu.data(), cpuBytes) == 0;
  CHECK(same, "encode W=%d m=%u %s: ILP section %u bytes vs CPU %llu (%s)", W, m, kDist[dist], off,
        (unsigned long long)cpuBytes, off == cpuBytes ? "bytes differ" : "sizes differ");

  // Decoder: the CPU section in an exact-size buffer (ASan sees any over-read), the table of
  // load_ans_table, the remainder plane of the block.
  uint32_t dtab[UZIP_ANS_M];
  cum = 0;
  for (int s = 0; s < 256; s++) {
    for (uint32_t j = 0; j < freqs[s]; j++) dtab[cum + j] = (uint32_t)s | (freqs[s] << 8) | (j << 20);
    cum += freqs[s];
  }
  std::vector<uint8_t> rem((size_t)m * (W > 1 ? W - 1 : 1));
  for (uint32_t i = 0; i < m && W > 1; i++) {
    uint32_t v = 0;
    memcpy(&v, &blk[(size_t)i * W], W);
    uint32_t r = uzip_remainder_of(v, W);
    memcpy(&rem[(size_t)i * (W - 1)], &r, W - 1);
  }
  for (int g = 0; g < 2; g++) {
    uint8_t* sec = (uint8_t*)malloc(cpuBytes);
    memcpy(sec, cpu.data(), cpuBytes);
    std::vector<uint8_t> out((size_t)m * W, 0xA5);
    bool ok = false;
    run_warp([&] {
      bool r = g ? uzip_gpu::decode_chains_ilp<W, true>(sec, tb, m, dtab, rem.data(), false, 0, out.data())
                 : uzip_gpu::decode_chains_ilp<W, false>(sec, tb, m, dtab, rem.data(), false, 0, out.data());
      if (host_lane() == 0) ok = r;
    });
    CHECK(ok && out == blk, "decode W=%d m=%u %s G=%d: ok=%d, output %s", W, m, kDist[dist], g, ok,
          out == blk ? "equal" : "differs");
    // Damage: a word, a state, a word count (kept within the section, as section_size guarantees).
    std::mt19937 r(seed + 99);
    int flagged = 0;
    const int trials = 6;
    for (int t = 0; t < trials; t++) {
      memcpy(sec, cpu.data(), cpuBytes);
      uint32_t so = tb;  // segment t % nseg
      for (uint32_t sg = 0; sg < (uint32_t)t % nseg; sg++) {
        uint32_t nw;
        memcpy(&nw, sec + so, 4);
        so += (UZIP_ANS_SEG_HEADER_BYTES + 2 * nw + 3) & ~3u;
      }
      uint32_t nw;
      memcpy(&nw, sec + so, 4);
      if (t % 3 == 0 && nw) sec[so + UZIP_ANS_SEG_HEADER_BYTES + 2 * (r() % nw)] ^= (uint8_t)(1u << (r() % 8));
      else if (t % 3 == 1) sec[so + 4 + 4 * (r() % 32) + (r() % 4)] ^= (uint8_t)(1u << (r() % 8));
      else if (nw) { uint32_t less = nw - 1 - (r() % (nw < 8 ? nw : 8)); memcpy(sec + so, &less, 4); }
      // section_size's walk (gpu_decode.cuh) refuses a section whose segments do not fit: no decode then.
      uint64_t pos = tb;
      bool walk = true;
      for (uint32_t sg = 0; sg < nseg && walk; sg++) {
        uint32_t n2, len = min(m - sg * UZIP_ANS_SEG_SYMS, UZIP_ANS_SEG_SYMS);
        if (cpuBytes - pos < UZIP_ANS_SEG_HEADER_BYTES) { walk = false; break; }
        memcpy(&n2, sec + pos, 4);
        uint64_t padded = (UZIP_ANS_SEG_HEADER_BYTES + 2ull * n2 + 3) & ~3ull;
        if (n2 > len || padded > cpuBytes - pos) walk = false;
        pos += padded;
      }
      if (!walk) { flagged++; continue; }
      bool ok2 = true;
      run_warp([&] {
        bool rr = uzip_gpu::decode_chains_ilp<W, true>(sec, tb, m, dtab, rem.data(), false, 0, out.data());
        if (host_lane() == 0) ok2 = rr;
      });
      flagged += !ok2;
    }
    CHECK(flagged >= trials / 2, "damage W=%d m=%u %s: only %d of %d damaged sections flagged", W, m, kDist[dist],
          flagged, trials);
    free(sec);
  }
}

int main() {
  const uint32_t sizes[] = {16385, 2 * 16384 + 5, 49153, 60001, 65536};
  uint32_t seed = 1;
  for (int dist = 0; dist < DIST_COUNT; dist++)
    for (uint32_t m : sizes) {
      check_block<2>(m, dist, seed++);
      if (m == 65536 || m == 16385) {
        check_block<1>(m, dist, seed++);
        check_block<4>(m, dist, seed++);
      }
    }
  printf("ilp_host_test: %d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
