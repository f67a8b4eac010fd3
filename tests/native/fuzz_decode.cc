// Fuzzer of the CPU decoder and inspector. LLVMFuzzerTestOneInput is libFuzzer's entry point, so a
// clang build can use it as is; this machine has no clang, so main() below is a small mutation driver:
// seeds are valid streams (several dtypes, layouts, sizes, data kinds), mutations are bit flips, byte
// sets, truncation, extension, splicing, and header / directory / ANS-table edits with the header check
// recomputed so that the deeper validation is reached. Every input is decoded into an exactly-sized
// heap buffer (AddressSanitizer catches any access past it). Properties checked (trap on violation):
// decode OK => inspect OK with the same count; a decoded result re-compresses and decodes back equal.
// Usage: fuzz_decode [seconds=60] [max_inputs=0 (no limit)] [seed=1]; scripts/fuzz.sh builds and runs it.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <string>
#include <vector>

#include "cpu_internal.h"
#include "test_data.h"
#include "uzip.h"

static uint64_t g_status[16];

static uint64_t rd64(const uint8_t* p) { uint64_t v; memcpy(&v, p, 8); return v; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Exact-size copy so that a read past `size` is a heap overflow ASan reports.
  uint8_t* src = (uint8_t*)malloc(size ? size : 1);
  if (size) memcpy(src, data, size);
  uzip_info info;
  int si = uzipInspect(src, size, &info);
  // The destination: exactly count * width when the header gives a plausible size, else a small one.
  uint64_t cap = 4096;
  if (size >= 64) {
    uint64_t count = rd64(src + 8);
    uint32_t dtype = src[5];
    if (dtype < UZIP_DTYPE_COUNT && count <= (1u << 22)) cap = count * uzip_dtype_width(dtype);
  }
  uint8_t* dst = (uint8_t*)malloc(cap ? cap : 1);
  uint64_t got = 0;
  int sd = uzipDecompressCpu(src, size, dst, cap, &got);
  g_status[sd & 15]++;
  // About one input in 61 (by size, so that a crash repeats; streams are whole 16-byte units, so no power of
  // two; starting threads under ASan costs ~0.1 ms) decodes on 3 threads too: the same status and message
  // (the first failing block in stream order), the same bytes.
  const bool threaded = size % 61u == 7u;
  if (threaded) {
    const std::string msg = uzipLastError();
    uint8_t* dst3 = (uint8_t*)malloc(cap ? cap : 1);
    uint64_t got3 = 0;
    const int s3 = uzipDecompressCpuMt(src, size, dst3, cap, &got3, 3);
    if (s3 != sd || msg != uzipLastError() || (sd == 0 && (got3 != got || (got && memcmp(dst3, dst, got) != 0))))
      __builtin_trap();
    free(dst3);
  }
  // About one input in 5 decodes again on the scalar paths where the AVX2 ones ran (uzip_cpu::simd_level):
  // the same status, message and bytes (and below, re-encodes on them: the same stream).
  if (size % 5u == 2u && uzip_cpu::simd_level() == 1) {
    const std::string msg = uzipLastError();
    uint8_t* dst0 = (uint8_t*)malloc(cap ? cap : 1);
    uint64_t got0 = 0;
    uzip_cpu::force_simd_level(0);
    const int s0 = uzipDecompressCpu(src, size, dst0, cap, &got0);
    uzip_cpu::force_simd_level(1);
    if (s0 != sd || msg != uzipLastError() || (sd == 0 && (got0 != got || (got && memcmp(dst0, dst, got) != 0))))
      __builtin_trap();
    free(dst0);
  }
  if (sd == 0) {
    if (si != 0 || info.rawBytes != got) __builtin_trap();  // decode OK must imply inspect OK
    // Re-compress what came out and decode it again: must give the same bytes.
    uint32_t dtype = src[5], flags = src[6], lg = src[7];
    uint64_t count = rd64(src + 8), bound = 0;
    if (uzipMaxCompressedSize((int)dtype, count, flags, lg, &bound) != 0) __builtin_trap();
    std::vector<uint8_t> s(bound), back(got + 1);  // + 1: never an empty vector (null data())
    uint64_t used = 0, got2 = 0;
    if (uzipCompressCpu(dst, count, (int)dtype, flags, lg, s.data(), bound, &used) != 0) __builtin_trap();
    if (size % 5u == 2u && uzip_cpu::simd_level() == 1) {  // the scalar encoder: the same bytes
      std::vector<uint8_t> s0(bound);
      uint64_t used0 = 0;
      uzip_cpu::force_simd_level(0);
      const int st0 = uzipCompressCpu(dst, count, (int)dtype, flags, lg, s0.data(), bound, &used0);
      uzip_cpu::force_simd_level(1);
      if (st0 != 0 || used0 != used || memcmp(s0.data(), s.data(), used) != 0) __builtin_trap();
    }
    if (threaded) {  // the same stream from 3 threads
      std::vector<uint8_t> s3(bound);
      uint64_t used3 = 0;
      if (uzipCompressCpuMt(dst, count, (int)dtype, flags, lg, s3.data(), bound, &used3, 3) != 0 || used3 != used ||
          memcmp(s3.data(), s.data(), used) != 0)
        __builtin_trap();
    }
    if (uzipDecompressCpu(s.data(), used, back.data(), got, &got2) != 0 || got2 != got ||
        (got && memcmp(back.data(), dst, got) != 0))
      __builtin_trap();
  }
  free(dst);
  free(src);
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Driver.
typedef std::vector<uint8_t> Bytes;

static void reseal(Bytes& s) {
  if (s.size() < 64) return;
  uint32_t w[14];
  memcpy(w, s.data(), 56);
  uint32_t c = uzip_header_check(w);
  memcpy(&s[56], &c, 4);
}

static std::vector<Bytes> make_seeds() {
  std::vector<Bytes> seeds;
  const uint64_t sizes[] = {0, 1, 3, 31, 33, 96, 100, 1023, 1024, 1025, 2600, 5000};
  const DataKind kinds[] = {GAUSS, UNIFORM, SPARSE, CONSTANT, RANDOM, PATTERNS};
  uint64_t k = 0;
  for (uint32_t dtype = 0; dtype < UZIP_DTYPE_COUNT; dtype++)
    // 6, 7: lane streams (split | lanes, checksum); 8-11: pair coding (bf16 and fp32 only); 0x10-0x13: lean
    // sections (0x12, 0x13: seeded segments)
    for (uint32_t flags : {0u, 1u, 2u, 3u, 6u, 7u, 8u, 9u, 10u, 11u, 0x10u, 0x12u, 0x13u})
      for (uint64_t n : sizes) {
        DataKind kind = kinds[k++ % 6];
        Bytes d = make_data(dtype, n, kind, k);
        uint64_t bound = 0, used = 0;
        uint32_t lg = n > 3000 ? 11 : 10;
        uzipMaxCompressedSize((int)dtype, n, flags, lg, &bound);
        Bytes s(bound);
        if (uzipCompressCpu(d.data(), n, (int)dtype, flags, lg, s.data(), bound, &used) == 0) {
          s.resize(used);
          seeds.push_back(s);
        }
      }
  return seeds;
}

static const uint8_t kInteresting[] = {0, 1, 2, 3, 4, 0x0F, 0x10, 0x20, 0x7F, 0x80, 0xFE, 0xFF};

static void mutate(Bytes& s, const std::vector<Bytes>& seeds, Rng& r) {
  int nmut = 1 + (int)(r.next() % 3);
  for (int m = 0; m < nmut; m++) {
    uint64_t sz = s.size();
    switch (r.next() % 12) {
      case 0: case 1:  // bit flip
        if (sz) s[r.next() % sz] ^= (uint8_t)(1u << (r.next() % 8));
        break;
      case 2:  // byte set
        if (sz) s[r.next() % sz] = r.next() & 1 ? (uint8_t)r.next() : kInteresting[r.next() % sizeof kInteresting];
        break;
      case 3:  // truncate
        if (sz) s.resize(r.next() % sz);
        break;
      case 4: {  // extend
        uint64_t add = 1 + r.next() % 64;
        for (uint64_t i = 0; i < add; i++) s.push_back((uint8_t)r.next());
        break;
      }
      case 5: {  // splice: our prefix + another seed's suffix
        const Bytes& o = seeds[r.next() % seeds.size()];
        uint64_t cut = sz ? r.next() % sz : 0, from = o.size() ? r.next() % o.size() : 0;
        s.resize(cut);
        s.insert(s.end(), o.begin() + from, o.end());
        break;
      }
      case 6: case 7: {  // a header field set to a neighbour or random value, check recomputed
        if (sz < 64) break;
        static const int offs[] = {5, 6, 7, 8, 16, 24, 28, 32, 40, 48, 60};
        int off = offs[r.next() % 11];
        int width = off < 8 ? 1 : (off == 24 || off == 28 || off == 60) ? 4 : 8;
        uint64_t v = 0;
        memcpy(&v, &s[off], width);
        switch (r.next() % 4) {
          case 0: v += 1; break;
          case 1: v -= 1; break;
          case 2: v += 16 * (1 + r.next() % 4); break;
          default: v = r.next() >> (r.next() % 64); break;
        }
        memcpy(&s[off], &v, width);
        if (r.next() % 4) reseal(s);
        break;
      }
      case 8: {  // consistent forge: a new count with nblocks, offsets and total recomputed
        if (sz < 64) break;
        uint32_t dtype = s[5] % UZIP_DTYPE_COUNT, flags = s[6] & 31, lg = s[7];
        if (lg < 10 || lg > 16) break;
        uint64_t count = rd64(&s[8]);
        count = r.next() & 1 ? count + (r.next() % 2048) - 1024 : r.next() >> (r.next() % 64);
        if (count > (1ull << 40)) count &= (1ull << 40) - 1;
        uint64_t nb = uzip_nblocks(count, lg);
        uint32_t nb32 = (uint32_t)nb;
        uint64_t ro = uzip_rem_offset(flags), dof = uzip_dir_offset(count, dtype, flags, lg),
                 po = uzip_payload_offset(count, dtype, flags, lg), total = r.next() & 1 ? sz & ~15ull : po;
        memcpy(&s[8], &count, 8);
        memcpy(&s[16], &total, 8);
        memcpy(&s[24], &nb32, 4);
        memcpy(&s[32], &ro, 8);
        memcpy(&s[40], &dof, 8);
        memcpy(&s[48], &po, 8);
        reseal(s);
        break;
      }
      case 9: {  // directory entry edit: mode nibbles or the end offset
        if (sz < 64) break;
        uint64_t dof = rd64(&s[40]), nb = 0;
        memcpy(&nb, &s[24], 4);
        if (!nb || dof > sz || nb > (sz - dof) / 8) break;  // no overflow on forged offsets
        uint64_t at = dof + 8 * (r.next() % nb), e = rd64(&s[at]);
        switch (r.next() % 3) {
          case 0: e ^= (uint64_t)(r.next() % 16) << 48; break;
          case 1: e ^= (uint64_t)(r.next() % 16) << 52; break;
          default: e += (r.next() & 1 ? 16 : -16); break;
        }
        memcpy(&s[at], &e, 8);
        break;
      }
      case 10: {  // ANS-table-like edit: move a frequency unit between two adjacent u16 slots
        if (sz < 8) break;
        uint64_t at = (r.next() % (sz - 4)) & ~1ull;
        uint16_t a, b;
        memcpy(&a, &s[at], 2);
        memcpy(&b, &s[at + 2], 2);
        a++, b--;
        memcpy(&s[at], &a, 2);
        memcpy(&s[at + 2], &b, 2);
        break;
      }
      default:  // reseal after earlier damage so the header passes
        reseal(s);
        break;
    }
  }
}

static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 60.0;
  uint64_t max_inputs = argc > 2 ? strtoull(argv[2], nullptr, 10) : 0;
  Rng r(argc > 3 ? strtoull(argv[3], nullptr, 10) : 1);
  std::vector<Bytes> seeds = make_seeds();
  uint64_t execs = 0;
  // Every seed as is first (they must decode).
  for (const Bytes& s : seeds) LLVMFuzzerTestOneInput(s.data(), s.size()), execs++;
  if (g_status[0] != seeds.size()) {
    fprintf(stderr, "seed streams failed to decode\n");
    return 1;
  }
  double t0 = now_s(), next_report = t0 + 10;
  Bytes cur;
  while (true) {
    cur = seeds[r.next() % seeds.size()];
    mutate(cur, seeds, r);
    LLVMFuzzerTestOneInput(cur.data(), cur.size());
    execs++;
    if ((execs & 255) == 0) {
      double t = now_s();
      if (t - t0 >= seconds || (max_inputs && execs >= max_inputs)) break;
      if (t >= next_report) {
        fprintf(stderr, "  %llu inputs, %.0f s\n", (unsigned long long)execs, t - t0);
        next_report += 10;
      }
    } else if (max_inputs && execs >= max_inputs) {
      break;
    }
  }
  printf("fuzz_decode: %llu inputs executed in %.1f s from %zu seeds; statuses:", (unsigned long long)execs,
         now_s() - t0, seeds.size());
  for (int i = 0; i < 16; i++)
    if (g_status[i]) printf(" %s=%llu", uzipStatusName(i), (unsigned long long)g_status[i]);
  printf("\n");
  return 0;
}
