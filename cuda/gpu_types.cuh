// Structures shared by the GPU codec's host code (gpu_codec.cu) and its kernels (gpu_encode.cuh,
// gpu_decode.cuh): the per-call scratch slots, the host-mapped result words and the kernel parameters.
#pragma once

#include <stdint.h>

// SMs whose CTAs a slot counts (GpuSlot::claim): a device with more gets no perSmCap.
constexpr unsigned UZIP_CLAIM_SMS = 256;

// One call's counters. Two slots alternate by the parity of the call's epoch: each kernel zeroes the
// other slot at its start, so the next call finds its slot clean with no memset launch.
struct GpuSlot {
  unsigned long long ticket;  // compress: next codec block to hand out
  unsigned long long total;   // compress: total stream bytes (written by the warp of the last block)
  unsigned int done;          // warps finished (low word of one 64-bit atomic with sum: end_count_add)
  unsigned int sum;           // checksum sum (order-free)
  unsigned int status;        // decompress: first error status (0 = none)
  unsigned int active;        // 1 once a CTA on a permitted SM has started taking blocks (gate_open)
  unsigned int claim[UZIP_CLAIM_SMS];  // compress under a perSmCap: CTAs that have started on each SM
};

#ifdef __CUDACC__
static_assert(offsetof(GpuSlot, done) % 8 == 0 && offsetof(GpuSlot, sum) == offsetof(GpuSlot, done) + 4,
              "done and sum form one little-endian 64-bit word");

// A warp's end: 1 to the count of finished warps and csum to the sum, one relaxed atomic (gpu_warp.cuh's
// fence_acq_rel_gpu says what orders the rest). Returns the word before the add.
__device__ __forceinline__ unsigned long long end_count_add(GpuSlot* slot, uint32_t csum) {
  return atomicAdd((unsigned long long*)&slot->done, ((unsigned long long)csum << 32) | 1ull);
}

// Warp 0 of CTA 0 of every codec kernel: zero the slot of the next call (the other parity), so that it
// finds its counters clean with no memset launch (the claim counters 8 words a lane).
__device__ __forceinline__ void clean_next_slot(GpuSlot* slots, uint32_t epoch) {
  if (blockIdx.x == 0 && threadIdx.x < 32) {
    GpuSlot* o = &slots[(epoch & 1u) ^ 1u];
    if (threadIdx.x == 0) {
      o->ticket = 0; o->total = 0; o->done = 0; o->sum = 0; o->status = 0; o->active = 0;
    }
    for (unsigned i = threadIdx.x; i < UZIP_CLAIM_SMS; i += 32) o->claim[i] = 0;
  }
}
#endif

// Host-mapped words of a context: the last compressed size and the last decode status.
struct GpuHostWords {
  unsigned long long size;
  int status;
  int pad;
};

// Look-back status word: bits 0..39 value (an end offset), 40..41 flag, 42..63 the call's epoch.
#define UZIP_LB_FLAG_AGG 1ull
#define UZIP_LB_FLAG_INC 2ull
#define UZIP_LB_EPOCH_BITS 22u

struct EncParams {
  const uint8_t* src;
  uint8_t* dst;
  unsigned long long* lookback;
  GpuSlot* slots;
  GpuHostWords* host;        // device view of the mapped words
  unsigned long long* outSizeDev;
  uint64_t count;
  uint64_t dirOff, payloadOff;
  uint32_t dtype, flags, log2Block, nblocks;
  uint32_t epoch;            // >= 1
  uint32_t srcAligned16;
  uint8_t* scratch;          // global word stage: stageBytes per resident warp (ctas * warps of them)
  uint32_t stageBytes;
  uint32_t smLimit;          // CTAs on SMs >= this take no blocks (0: no limit); see sm_gated
  uint32_t perSmCap;         // compress_kernel: CTAs of a permitted SM that take blocks (0: all; UzipGrid)
};

struct DecParams {
  const uint8_t* src;
  uint8_t* dst;
  GpuSlot* slots;
  GpuHostWords* host;
  unsigned int* statusDev;
  uint64_t srcBytes, dstCapacity;
  uint32_t epoch;
  uint32_t smLimit;
  // uzipGpuDecompressEither launches two kernels on one stream: a stream whose coding (bit DEC_CODING_*), or a
  // bad header (bit 4), is in skipMask is the other kernel's, and this one leaves it without a trace.
  uint32_t skipMask;
  // Fused reduce (uzipGpuDecompressReduce), when `other` is not null: dst = decoded op other, elementwise
  // as coll_reduce_elem_s(decoded, other) (nccl/coll_reduce.h); the stream must hold redCount elements of
  // redDtype.
  const uint8_t* other;
  uint64_t redCount;
  int32_t redDtype, redOp;
};
