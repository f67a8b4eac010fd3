// The CPU collective backend: host arrays, the CPU reference codec, scalar reductions from
// coll_reduce.h. decodeReduce(Encode) is composed (decode into scratch, reduce, encode): the CPU path
// exists for correctness (tests, simulation), not speed.
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "coll_backend.h"
#include "coll_reduce.h"
#include "status.h"
#include "uzip.h"
#include "uzip_format.h"

namespace uzip {
namespace {

constexpr uint32_t kFlags = kCollFlags, kLog2Block = kCollLog2Block;

class CpuBackend final : public CollBackend {
 public:
  bool onDevice() const override { return false; }
  bool fused() const override { return false; }
  ~CpuBackend() override {
    for (void* p : slots_) free(p);
  }
  int scratch(int slot, uint64_t bytes, void** out) override {
    if (slot < 0) return uzipSetError(UZIP_ERR_INTERNAL, "bad scratch slot %d", slot);
    if ((size_t)slot >= slots_.size()) {
      slots_.resize(slot + 1, nullptr);
      sizes_.resize(slot + 1, 0);
    }
    if (sizes_[slot] < bytes || !slots_[slot]) {
      free(slots_[slot]);
      slots_[slot] = malloc(bytes ? bytes : 1);
      sizes_[slot] = slots_[slot] ? bytes : 0;
      if (!slots_[slot])
        return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate %llu host bytes", (unsigned long long)bytes);
    }
    *out = slots_[slot];
    return UZIP_OK;
  }
  int copy(void* dst, const void* src, uint64_t bytes) override {
    if (bytes && dst != src) memmove(dst, src, bytes);
    return UZIP_OK;
  }
  int toHost(void* dst, const void* src, uint64_t bytes) override { return copy(dst, src, bytes); }
  uint64_t maxCompressed(uint64_t count, int dtype) override {
    return uzip_max_compressed_size(count, (uint32_t)dtype, kFlags, kLog2Block);
  }
  int compress(const void* src, uint64_t count, int dtype, void* dst, uint64_t cap,
               uint64_t* outBytes, uint64_t* sizeWord) override {
    if (int st = uzipCompressCpu(src, count, dtype, kFlags, kLog2Block, dst, cap, outBytes)) return st;
    if (sizeWord) *sizeWord = *outBytes;
    return UZIP_OK;
  }
  int decompress(const void* src, uint64_t srcBytes, void* dst, uint64_t count, int dtype) override {
    uint64_t want = count * uzip_dtype_width((uint32_t)dtype), got = 0;
    if (int st = uzipDecompressCpu(src, srcBytes, dst, want, &got)) return st;
    if (got != want)
      return uzipSetError(UZIP_ERR_CORRUPT, "collective chunk decoded to %llu bytes, expected %llu",
                          (unsigned long long)got, (unsigned long long)want);
    return UZIP_OK;
  }
  int reduce(void* out, const void* a, const void* b, uint64_t count, int dtype, int op) override {
    uint32_t w = uzip_dtype_width((uint32_t)dtype);
    const float s = coll_op_scale(dtype, op);
    for (uint64_t i = 0; i < count; i++)
      coll_store(out, i, w, coll_reduce_elem_s(coll_load(a, i, w), coll_load(b, i, w), dtype, op, s));
    return UZIP_OK;
  }
  int premulAvg(void* out, const void* in, uint64_t count, int dtype, int nranks) override {
    uint32_t w = uzip_dtype_width((uint32_t)dtype);
    for (uint64_t i = 0; i < count; i++)
      coll_store(out, i, w, coll_premul_avg(coll_load(in, i, w), dtype, nranks));
    return UZIP_OK;
  }
  int decodeReduce(void* out, const void* local, const void* stream, uint64_t streamBytes, uint64_t count,
                   int dtype, int op) override {
    uint64_t bytes = count * uzip_dtype_width((uint32_t)dtype);
    if (scratch_.size() < bytes) scratch_.resize(bytes);
    if (int st = decompress(stream, streamBytes, scratch_.data(), count, dtype)) return st;
    return reduce(out, scratch_.data(), local, count, dtype, op);
  }
  int decodeReduceEncode(void* out, const void* local, const void* stream, uint64_t streamBytes,
                         uint64_t count, int dtype, int op, void* enc, uint64_t cap,
                         uint64_t* encBytes, uint64_t* sizeWord) override {
    if (int st = decodeReduce(out, local, stream, streamBytes, count, dtype, op)) return st;
    return compress(out, count, dtype, enc, cap, encBytes, sizeWord);
  }
  int sync() override { return UZIP_OK; }

 private:
  std::vector<unsigned char> scratch_;
  std::vector<void*> slots_;
  std::vector<uint64_t> sizes_;
};

}  // namespace

CollBackend* newCpuCollBackend() { return new (std::nothrow) CpuBackend(); }

}  // namespace uzip
