// The GPU codec's C ABI (uzip.h): contexts, and the compress / decompress launches. A context owns the
// scratch of one device: two alternating counter slots and the look-back status words (tagged with the
// call's epoch, so no per-call memset), plus a host-mapped pair of words (last size, last status).
// One context serves one stream at a time: calls on it must be ordered (same stream, or events).
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include "cuda_util.h"
#include "gpu_decode.cuh"
#include "gpu_encode.cuh"
#include "gpu_lanes_encode.cuh"
#include "gpu_pairs_encode.cuh"
#include "codec_args.h"
#include "dec_variant.h"
#include "enc_variant.h"
#include "grid_shape.h"
#include "status.h"
#include "uzip.h"
#include "coll_reduce.h"

namespace {

const uint64_t kCtxMagic = 0x5558544347505A55ull;

struct Launch {  // cached launch shape of the compress kernel for one (width, log2Block)
  int perSm = 0;
};
// Warps per compress CTA. (One warp per CTA, for a constant shared base, measured 3-5% slower for bf16:
// bench/results/h200-2026-12-02T0200-session13/2-encstep.)
constexpr int kEncWarps = 4;
// Compile-time shapes of the lane-stream encoder (lanes_enc_shape).
constexpr int kLanesEncVariants = 5;
// Blocks per SM of the budget from which the lane encoder takes its 24-warp variant: 4 rounds of its 24
// warps per SM (launch_lanes_compress).
constexpr uint64_t kLanesDeepBlocksPerSm = 4 * 24;

// Kernel variants (steps per unrolled ANS group, CTAs per SM the registers allow). Variant 0 is the
// default; the encoder's choice per call is uzip_enc_variant (cuda/enc_variant.h: many rounds of blocks take
// variant 1, calls of few blocks warp pairs), and a decode told its stream's dtype may take another decoder
// (choose_decoder). UZIP_GPU_ENC_VARIANT = 0..3 / UZIP_GPU_DEC_VARIANT = 0..4 force one for every call, for
// tuning on new hardware.
using EncKernel = void (*)(const EncParams);
// Blocks of two segments (log2Block 15) on lone warps take the kernels that code the last segment first
// (compress_block's REV): no words move. 2^15 compress against the common kernels, same call: bf16 split
// 1 / 4 GiB 0.873 / 0.902 -> 0.900 / 0.908 TB/s, fp8 0.414 / 0.425 -> 0.451 / 0.454
// (bench/results/h200-2026-12-04T0430-session28/5-rev-kernels).
// LEAN streams (FORMAT.md "Lean sections") take kernels of their own, so that the others compile as before: the
// lone-warp kernel of variant 0 for variants 0-2, the warp pairs, and variant 0's two-segment kernel.
// Four-byte types on lone warps of the 8-step kernel stage their symbol plane in large split-layout calls
// (sym: compress_block's SYM; the rule and its measurements: uzip_enc_sym_staged in enc_variant.h).
template <int W>
EncKernel enc_kernel(int variant, uint32_t log2, bool lean = false, bool sym = false) {
  const bool twoSegments = (1ull << log2) == 2ull * UZIP_ANS_SEG_SYMS;  // log2Block 15
  if constexpr (W == 4)
    if (sym) return uzip_gpu::compress_kernel<4, 8, 4, false, false, false, true>;
  if (lean) {
    if (twoSegments && variant != 3) return uzip_gpu::compress_kernel<W, 8, 4, false, true, true>;
    return variant == 3 ? uzip_gpu::compress_kernel<W, 8, 4, true, false, true>
                        : uzip_gpu::compress_kernel<W, 8, 4, false, false, true>;
  }
  if (twoSegments && variant == 0) return uzip_gpu::compress_kernel<W, 8, 4, false, true>;
  if (twoSegments && variant == 1) return uzip_gpu::compress_kernel<W, 4, 5, false, true>;
  switch (variant) {
    case 1: return uzip_gpu::compress_kernel<W, 4, 5>;
    case 2: return uzip_gpu::compress_kernel<W, 2, 5>;
    // Warp pairs (compress_pairs in cuda/gpu_encode.cuh): two warps a block, for calls of few blocks.
    case 3: return uzip_gpu::compress_kernel<W, 8, 4, true>;
    default: return uzip_gpu::compress_kernel<W, 8, 4>;
  }
}
constexpr int kEncVariants = UZIP_ENC_VARIANTS;  // enc_variant.h: the choice per call
constexpr int kEncPairVariant = UZIP_ENC_PAIR_VARIANT;
using DecKernel = void (*)(const DecParams);
DecKernel dec_kernel(int variant) {
  switch (variant) {
    case 1: return uzip_gpu::decompress_kernel<16, 4>;
    case 2: return uzip_gpu::decompress_kernel<8, 5>;  // without segment pairs (the default before them)
    // 16 warps per SM without spills: the one-round kernel of dec_kernel_one_round.
    case 3: return uzip_gpu::decompress_kernel<8, 4, true>;
    // The compact shared layout (DEC_COMPACT_WARP_BYTES): 24 warps per SM at 80 registers.
    case 4: return uzip_gpu::decompress_kernel<8, 6, false, false, false, true, true>;
    default: return uzip_gpu::decompress_kernel<8, 5, true>;
  }
}
// Shared memory a warp of dec_kernel(variant) uses.
uint32_t dec_warp_bytes(int variant) {
  return variant == 4 ? uzip_gpu::DEC_COMPACT_WARP_BYTES : uzip_gpu::DEC_WARP_BYTES;
}
// The fused decode-reduce (uzipGpuDecompressReduce): the default decoder plus the reduce of each block,
// with the registers of 4 CTAs per SM (at 5, as the plain decoder, its epilogue spilled).
DecKernel dec_kernel_fused() { return uzip_gpu::decompress_kernel<8, 4, true, true>; }
// For streams the caller says are fp32 (uzipGpuDecompressAs), variant 1: groups of 8 steps (its 16-step
// group halved for 4-byte elements) with 128 registers at 16 warps per SM, against the default's
// 4 steps at 20 warps with 96 registers and spills. fp32 decode measured +11% at 1 GiB and +19% at 256 MiB,
// but bf16 -37% (bench/results/h200-2026-12-01T2045-session11/4-kernel-variants), so it takes only the
// hint. Any stream still decodes correctly in it: the header decides the path, as in every decoder.
DecKernel dec_kernel_wide() { return dec_kernel(1); }
// The wide kernel without the lean path, for large fp32 calls beside the lean kernel (uzip_dec_wide_apart).
DecKernel dec_kernel_wide_bytes() {
  return uzip_gpu::decompress_kernel<16, 4, false, false, uzip_gpu::DEC_CODING_BYTES, true, false, false>;
}
// For one- and two-byte streams whose blocks (estimated from the caller's dtype and the destination's
// size) fit in one round of this kernel's warps, and for small calls without a dtype (uzip_dec_kernel in
// cuda/dec_variant.h; session 43 dropped session 12's lower bound of a third of a round): variant 3, the default's
// groups at 16 warps per SM with no spills. A warp then decodes one block, so its speed is what counts,
// not the count of warps. Same-call A/B (bench/results/h200-2026-12-01T2335-session12/1-next): bf16 and
// fp16 at 64 MiB (2048 blocks for 2112 warps) +8-9%, fp8 at 32 MiB +9%, bf16 at 16 MiB (1024 blocks of
// 2^13) +3-5%; from 1.2 rounds (3072 blocks) -0.5 to -2.5%. gpu_check passed every case in it (3923).
DecKernel dec_kernel_one_round() { return dec_kernel(3); }
// A kernel variant forced by the environment (0..max), or -1 (unset or out of range): the library chooses.
int env_variant(const char* name, int max) {
  const char* v = getenv(name);
  if (!v || !*v) return -1;
  int x = atoi(v);
  return x >= 0 && x <= max ? x : -1;
}

struct GpuCodec {
  uint64_t magic;
  int device, sms, maxSms, maxSmemOptin;
  uint32_t epoch;
  GpuSlot* slots;                // device: slots[2], then the look-back words
  unsigned long long* lookback;  // device
  uint64_t lbCap;                // look-back words allocated
  GpuHostWords* host;            // host-mapped
  GpuHostWords* hostDev;         // its device address
  uint8_t* scratch;              // device: the compress kernel's word stages (one per resident warp)
  uint64_t scratchCap;           // bytes
  int encVariant, decVariant;  // forced by the environment, or -1 (see env_variant)
  int encSymStage;             // UZIP_GPU_ENC_SYMSTAGE forces 1 / 0, or -1 (uzip_enc_sym_staged)
  bool spreadSmallCalls;       // UZIP_GPU_STRICT_BUDGET=0: calls within a budget's CTAs spread (uzip_grid_shape)
  Launch enc[2][kEncVariants][3][UZIP_LOG2_BLOCK_MAX + 1];  // [lean][variant][width 1, 2, 4][log2Block]
  Launch encSym[UZIP_LOG2_BLOCK_MAX + 1];                    // the fp32 kernel with its symbol plane staged
  int decPerSm, decFusedPerSm, decWidePerSm, decWideBytesPerSm, decOneRoundPerSm, decCompactPerSm;
  int decWideApart;  // UZIP_GPU_DEC_WIDE_APART forces 1 / 0, or -1 (uzip_dec_wide_apart)
  int lanesEncVariant;           // forced by the environment, or -1
  int lanesEncPerSm[kLanesEncVariants][3][UZIP_LANES_LOG2_BLOCK_MAX + 1];  // [variant][width 1, 2, 4][log2Block], 0 = not yet known
  int lanesDecPerSm[2], lanesDecVariant;  // [0]: the word-ring kernel, [1]: global words
  int pairsDecPerSm, leanDecPerSm, leanCompactDecPerSm, leanFusedDecPerSm;
  bool eitherPdl;                // uzipGpuDecompressEither's second kernel as a programmatic dependent launch
  int leanDecVariant;            // UZIP_GPU_LEAN_DEC_VARIANT forces 0 (lean) / 1 (compact lean), or -1 (the rule)
  int pairsEncPerSm[2];          // [bf16, fp32], 0 = not yet known
  std::mutex mu;
};

struct DeviceScope {
  int prev = -1, st = UZIP_OK;
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    if (prev != device) st = uzipCudaCheck(cudaSetDevice(device), "cudaSetDevice");
  }
  ~DeviceScope() {
    if (prev >= 0) cudaSetDevice(prev);
  }
};

int get_ctx(uint64_t h, GpuCodec** out) {
  GpuCodec* c = (GpuCodec*)(uintptr_t)h;
  if (!c || c->magic != kCtxMagic) return uzipSetError(UZIP_ERR_INVALID_ARG, "not a GPU codec context");
  *out = c;
  return UZIP_OK;
}

// Grows the look-back words to hold n blocks (zeroed, which no epoch matches).
int ensure_lookback(GpuCodec* c, uint64_t n, cudaStream_t s) {
  if (n <= c->lbCap) return UZIP_OK;
  uint64_t cap = c->lbCap ? c->lbCap : 1024;
  while (cap < n) cap *= 2;
  void* p = nullptr;
  if (int st = uzipCudaCheck(cudaMalloc(&p, cap * 8), "cudaMalloc (look-back)")) return st;
  if (int st = uzipCudaCheck(cudaMemsetAsync(p, 0, cap * 8, s), "cudaMemsetAsync (look-back)")) {
    cudaFree(p);
    return st;
  }
  if (c->lookback) cudaFree(c->lookback);  // synchronizes: no kernel still uses the old words
  c->lookback = (unsigned long long*)p;
  c->lbCap = cap;
  return UZIP_OK;
}

// Grows the compress kernel's word stages to `bytes` (contents need not survive a call).
int ensure_scratch(GpuCodec* c, uint64_t bytes) {
  if (bytes <= c->scratchCap) return UZIP_OK;
  void* p = nullptr;
  if (int st = uzipCudaCheck(cudaMalloc(&p, bytes), "cudaMalloc (compress word stages)")) return st;
  if (c->scratch) cudaFree(c->scratch);  // synchronizes: no kernel still uses the old stages
  c->scratch = (uint8_t*)p;
  c->scratchCap = bytes;
  return UZIP_OK;
}

// Next epoch; on a wrap of the look-back tag every word is cleared once.
int next_epoch(GpuCodec* c, cudaStream_t s) {
  c->epoch++;
  if ((c->epoch & ((1u << UZIP_LB_EPOCH_BITS) - 1u)) == 0) {
    c->epoch++;
    if (c->lookback)
      if (int st = uzipCudaCheck(cudaMemsetAsync(c->lookback, 0, c->lbCap * 8, s), "cudaMemsetAsync")) return st;
  }
  return UZIP_OK;
}

// After a failed launch the alternating slots are in an unknown state: clear both.
void reset_slots(GpuCodec* c, cudaStream_t s) { cudaMemsetAsync(c->slots, 0, 2 * sizeof(GpuSlot), s); }

template <int W>
int enc_shape(GpuCodec* c, int variant, uint32_t log2, bool lean, bool sym, Launch* out) {
  Launch& L = sym ? c->encSym[log2] : c->enc[lean ? 1 : 0][variant][W == 4 ? 2 : W - 1][log2];
  if (!L.perSm) {
    const size_t smem = (size_t)uzip_gpu::ENC_WARP_BYTES * kEncWarps;
    EncKernel k = enc_kernel<W>(variant, log2, lean, sym);
    if (int st = uzipCudaCheck(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
                               "cudaFuncSetAttribute"))
      return st;
    int per = 0;
    if (int st = uzipCudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, 32 * kEncWarps, smem),
                               "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
      return st;
    if (per < 1) return uzipSetError(UZIP_ERR_INTERNAL, "compress kernel does not fit the device");
    L.perSm = per;
  }
  *out = L;
  return UZIP_OK;
}

int sm_budget(GpuCodec* c) { return c->maxSms > 0 && c->maxSms < c->sms ? c->maxSms : c->sms; }

// CTAs to launch for `need` CTAs of work at perSm resident CTAs per SM, and the SM gate (uzip_grid_shape in
// cuda/grid_shape.h: under a budget the full grid, gated to the budget's SMs).
// perSmCap (may be null): the compress kernel's cap of working CTAs a permitted SM (0 on a device with more SMs
// than a slot counts, GpuSlot::claim).
void grid_shape(GpuCodec* c, int perSm, uint64_t need, uint64_t* ctas, uint64_t* smLimit,
                uint32_t* perSmCap = nullptr) {
  const UzipGrid g =
      uzip_grid_shape(need, (uint32_t)perSm, (uint32_t)c->sms, (uint32_t)sm_budget(c), c->spreadSmallCalls);
  *ctas = g.ctas;
  *smLimit = g.smLimit;
  if (perSmCap) *perSmCap = c->sms <= (int)UZIP_CLAIM_SMS ? g.perSmCap : 0u;
}

template <int W>
int launch_compress(GpuCodec* c, const EncParams& p, cudaStream_t s) {
  Launch L;
  const bool lean = (p.flags & UZIP_FLAG_LEAN) != 0;
  int variant = c->encVariant;  // UZIP_GPU_ENC_VARIANT forces one
  if (variant < 0) {
    Launch lone, pair;
    if (int st = enc_shape<W>(c, 0, p.log2Block, lean, false, &lone)) return st;
    if (int st = enc_shape<W>(c, kEncPairVariant, p.log2Block, lean, false, &pair)) return st;
    const uint64_t sms = (uint64_t)sm_budget(c);
    variant = uzip_enc_variant(W, p.nblocks, -1, sms * lone.perSm * kEncWarps, sms * pair.perSm * (kEncWarps / 2));
  }
  const bool sym = uzip_enc_sym_staged(W, variant, p.log2Block, p.flags, p.count, c->encSymStage);
  if (int st = enc_shape<W>(c, variant, p.log2Block, lean, sym, &L)) return st;
  uint64_t ctas, smLimit;
  uint32_t perSmCap;
  const uint64_t blocksPerCta = variant == kEncPairVariant ? kEncWarps / 2 : kEncWarps;  // blocks at a time
  grid_shape(c, L.perSm, (p.nblocks + blocksPerCta - 1) / blocksPerCta, &ctas, &smLimit, &perSmCap);
  EncParams q = p;
  q.smLimit = (uint32_t)smLimit;
  q.perSmCap = perSmCap;
  q.stageBytes = uzip_gpu::enc_stage_bytes(p.log2Block, W, p.flags, sym);
  if (int st = ensure_scratch(c, ctas * kEncWarps * uzip_gpu::ENC_STAGES * q.stageBytes + 64u)) return st;
  q.scratch = c->scratch;
  void* args[] = {&q};
  return uzipCudaCheck(cudaLaunchKernel((const void*)enc_kernel<W>(variant, p.log2Block, lean, sym), dim3((unsigned)ctas),
                                        dim3(32 * kEncWarps), args, (size_t)uzip_gpu::ENC_WARP_BYTES * kEncWarps, s),
                       "compress kernel launch");
}

// Lane streams (gpu_lanes_encode.cuh). Variants: 0 reads a block twice through a ring of registers (4 warps
// per CTA, the registers of 6 CTAs per SM: 7.1 KB of shared memory per warp allows 7); 1 stages the block's
// symbols in shared memory (one read; one warp per CTA, as many as 7.1 KB + one byte per element allow: 9
// per SM at 2^14, 14 at 2^13); 2 and 3 are 0 and 1 reading through a cp.async ring in shared memory (6 and
// 8 chunks of 512 bytes per warp); 4 is 2 with a ring of 4 chunks and 24 warps per SM, for the trade of
// ring depth against warps. UZIP_GPU_LANES_ENC_VARIANT = 0..4 forces one.
// Launches an encoder kernel k whose warps each code one block at a time, `warps` to a CTA with smem bytes of
// shared memory (attrBytes: the dynamic shared memory it is allowed, set on the first launch with perSm, the
// CTAs an SM holds, 0 until then), and `stages` global stages of stageBytes a warp; the grid follows the SM
// budget (grid_shape).
int launch_warp_encoder(GpuCodec* c, const void* k, int warps, size_t smem, int attrBytes, int& perSm,
                        const EncParams& p, uint32_t stageBytes, uint32_t stages, cudaStream_t s, const char* what) {
  if (!perSm) {
    if (int st = uzipCudaCheck(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, attrBytes),
                               "cudaFuncSetAttribute (encoder)"))
      return st;
    if (int st = uzipCudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, 32 * warps, smem),
                               "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
      return st;
    if (perSm < 1) return uzipSetError(UZIP_ERR_INTERNAL, "%s kernel does not fit the device", what);
  }
  uint64_t ctas, smLimit;
  grid_shape(c, perSm, (p.nblocks + warps - 1) / warps, &ctas, &smLimit);
  EncParams q = p;
  q.smLimit = (uint32_t)smLimit;
  q.stageBytes = stageBytes;
  if (int st = ensure_scratch(c, ctas * warps * stages * (uint64_t)stageBytes + 64u)) return st;
  q.scratch = c->scratch;
  void* args[] = {&q};
  return uzipCudaCheck(cudaLaunchKernel(k, dim3((unsigned)ctas), dim3(32 * warps), args, smem, s), what);
}

struct LanesEncShape {
  const void* kernel;
  int warps;
  bool syms;
  uint32_t ring;
};
template <int W>
LanesEncShape lanes_enc_shape(int variant) {
  switch (variant) {
    case 1: return {(const void*)uzip_gpu::lanes_compress_kernel<W, 1, 14, true, 8, 0>, 1, true, 0};
    case 2: return {(const void*)uzip_gpu::lanes_compress_kernel<W, 4, 5, false, 8, 6>, 4, false, 6};
    case 3: return {(const void*)uzip_gpu::lanes_compress_kernel<W, 1, 12, true, 8, 8>, 1, true, 8};
    case 4: return {(const void*)uzip_gpu::lanes_compress_kernel<W, 4, 6, false, 8, 4>, 4, false, 4};
    default: return {(const void*)uzip_gpu::lanes_compress_kernel<W, 4, 6, false, 8, 0>, 4, false, 0};
  }
}
template <int W>
int launch_lanes_compress(GpuCodec* c, const EncParams& p, cudaStream_t s) {
  // The cp.async ring pays everywhere (bf16 1 GiB 0.657 -> 0.803 TB/s, fp32 0.791 -> 1.093); staging the
  // symbols on top pays only for fp8, 16 symbols per chunk (0.245 -> 0.261), and costs the others warps
  // (bench/results/h200-2026-12-02T0750-session15/4-async).
  // Over many rounds of blocks, more warps beat a deeper ring: variant 4 (4 chunks, 24 warps per SM) against
  // 2 (6 chunks, 20), lane blocks of 2^14, whole chip: bf16 2 GiB 0.838 -> 0.883 TB/s, 1 GiB 0.825 -> 0.866,
  // 512 MiB 0.796 -> 0.807 but 256 MiB 0.737 -> 0.713; fp32 2 GiB 1.081 -> 1.151, 1 GiB 1.049 -> 1.081,
  // 512 MiB equal, 256 MiB 0.864 -> 0.825 (bench/results/h200-2026-12-02T1136-session16/3-final). Both
  // turn where a call is 16384 blocks (5.2 rounds of 132 SMs x 24 warps; 8192 blocks, 2.6 rounds, is the
  // last size where variant 2 wins or ties), so the rule counts rounds of the SM budget's warps: from 4 on.
  // SM budgets below the whole chip are not measured.
  const bool deep = p.nblocks >= kLanesDeepBlocksPerSm * (uint64_t)sm_budget(c);
  const int variant = c->lanesEncVariant >= 0 ? c->lanesEncVariant : W == 1 ? 3 : deep ? 4 : 2;
  const LanesEncShape sh = lanes_enc_shape<W>(variant);
  const void* k = sh.kernel;
  const int warps = sh.warps;
  const size_t smem = (size_t)warps * uzip_gpu::lanes_enc_warp_bytes(p.log2Block, sh.syms, sh.ring);
  // The attribute is the kernel's, for every block size: set to the largest block's shared memory.
  const int most = warps * (int)uzip_gpu::lanes_enc_warp_bytes(UZIP_LANES_LOG2_BLOCK_MAX, sh.syms, sh.ring);
  return launch_warp_encoder(c, k, warps, smem, most, c->lanesEncPerSm[variant][W == 4 ? 2 : W - 1][p.log2Block], p,
                             uzip_gpu::lanes_enc_stage_bytes(p.log2Block), 1, s, "lanes compress");
}

// The encoder of pair coding (FORMAT.md "Pair coding", gpu_pairs_encode.cuh): split layout, blocks of at most
// 2^15 elements (uzipGpuCompress checks both), 4 warps per CTA, two stages a warp (its look-back is deferred).
template <int W>
int launch_pairs_compress(GpuCodec* c, const EncParams& p, cudaStream_t s) {
  constexpr int warps = 4;
  const size_t smem = (size_t)warps * uzip_gpu::pairs_enc_warp_bytes<W>();
  return launch_warp_encoder(c, (const void*)uzip_gpu::pairs_compress_kernel<W>, warps, smem, (int)smem,
                             c->pairsEncPerSm[W == 4], p, uzip_gpu::pairs_enc_stage_bytes(p.log2Block), 2, s,
                             "pairs compress");
}

// Lets a decode kernel use its shared memory and finds how many of its CTAs fit on an SM.
int dec_prepare(DecKernel k, int* perSm, int warpBytes = (int)uzip_gpu::DEC_WARP_BYTES) {
  const int smem = 4 * warpBytes;
  int per = 0;
  if (int st = uzipCudaCheck(cudaFuncSetAttribute((const void*)k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
                             "cudaFuncSetAttribute (decompress)"))
    return st;
  if (int st = uzipCudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, 128, smem),
                             "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
    return st;
  *perSm = per > 0 ? per : 1;
  return UZIP_OK;
}

// The decoder of lane streams (uzipGpuDecompressLanes). Variant 0 reads each lane's words through a cp.async
// ring in shared memory; 1 from global memory two words ahead, as before session 15. The ring serves two-byte
// types only (R_ON in gpu_lanes_decode.cuh), and its kernel holds 12 warps per SM against the other's 24, so a
// stream the caller says is fp32 or one-byte takes variant 1: fp32 1 GiB decoded 0.794 TB/s in the ring kernel
// against 1.087 (bench/results/h200-2026-12-02T1136-session16/1-verify-histring).
// UZIP_GPU_LANES_DEC_VARIANT=1 forces variant 1 for every stream.
DecKernel dec_kernel_lanes(int variant) {
  // The ring's 2.3 KB a warp leave 3 CTAs of 4 warps per SM: the registers of 3 (as 6 spilled 532 bytes).
  return variant == 1 ? uzip_gpu::decompress_kernel<8, 6, false, false, uzip_gpu::DEC_CODING_LANES, false>
                      : uzip_gpu::decompress_kernel<8, 3, false, false, uzip_gpu::DEC_CODING_LANES, true>;
}
uint32_t lanes_dec_bytes(int variant) { return uzip_gpu::lanes_dec_warp_bytes(variant != 1); }
// The decoder of pair-coded streams (uzipGpuDecompressPairs; gpu_pairs_decode.cuh): 4 CTAs of 4 warps per SM at
// 128 registers (its 7.9 KB a warp would allow more; a u32 slot table, 19.2 KB a warp, held it to 3 CTAs and
// decoded 6-14% slower: bench/results/h200-2026-12-04T1853-session32/8-u8-table).
DecKernel dec_kernel_pairs() { return uzip_gpu::decompress_kernel<8, 4, false, false, uzip_gpu::DEC_CODING_PAIRS>; }
// The decoder of lean sections (uzipGpuDecompressLean; FORMAT.md "Lean sections"): 8-step groups without segment
// pairs, in a kernel of its own, at 4 CTAs per SM (ptxas: 20 bytes of spill stores at 128 registers; at 5 CTAs,
// 776 at 96).
DecKernel dec_kernel_lean() { return uzip_gpu::decompress_kernel<8, 4, false, false, uzip_gpu::DEC_CODING_LEAN>; }
// Its decode-reduce (uzipGpuDecompressReduceLean), at 4 CTAs per SM as the default one (dec_kernel_fused).
DecKernel dec_kernel_lean_fused() {
  return uzip_gpu::decompress_kernel<8, 4, false, true, uzip_gpu::DEC_CODING_LEAN>;
}
// The same in the compact layout (DEC_COMPACT_WARP_BYTES a warp) at 5 CTAs per SM, for calls of many rounds
// (uzip_lean_dec_compact in cuda/dec_variant.h; ptxas, session 39: 284 bytes of spill stores and 1464 of loads
// at 96 registers, against 1008 / 2508 at 6 CTAs and 80).
DecKernel dec_kernel_lean_compact() {
  return uzip_gpu::decompress_kernel<8, 5, false, false, uzip_gpu::DEC_CODING_LEAN, true, true>;
}

struct DecChoice {
  DecKernel kernel;
  int perSm;
  uint32_t warpBytes = uzip_gpu::DEC_WARP_BYTES;
};
// The decode kernel for a call: uzip_dec_kernel (cuda/dec_variant.h) picks it, this maps it to a kernel.
DecChoice choose_decoder(GpuCodec* c, bool fused, int dtypeHint, uint64_t dstCapacity) {
  const uint32_t budget = (uint32_t)sm_budget(c);
  switch (uzip_dec_kernel(fused, c->decVariant, dtypeHint, dstCapacity, budget, (uint32_t)c->sms,
                          4ull * budget * c->decOneRoundPerSm, 4ull * budget * c->decPerSm)) {
    case UZIP_DEC_FUSED: return {dec_kernel_fused(), c->decFusedPerSm};
    case UZIP_DEC_FORCED: return {dec_kernel(c->decVariant), c->decPerSm, dec_warp_bytes(c->decVariant)};
    case UZIP_DEC_WIDE: return {dec_kernel_wide(), c->decWidePerSm};
    case UZIP_DEC_ONE_ROUND: return {dec_kernel_one_round(), c->decOneRoundPerSm};
    case UZIP_DEC_COMPACT: return {dec_kernel(4), c->decCompactPerSm, uzip_gpu::DEC_COMPACT_WARP_BYTES};
    default: return {dec_kernel(-1), c->decPerSm};
  }
}

// The lean decode kernel for a call: uzip_lean_dec_compact (cuda/dec_variant.h) picks the layout.
DecChoice choose_lean_decoder(GpuCodec* c, uint64_t dstCapacity) {
  const uint64_t leanWarps = 4ull * (uint64_t)sm_budget(c) * (uint64_t)c->leanDecPerSm;
  if (uzip_lean_dec_compact(c->leanDecVariant, dstCapacity, leanWarps))
    return {dec_kernel_lean_compact(), c->leanCompactDecPerSm, uzip_gpu::DEC_COMPACT_WARP_BYTES};
  return {dec_kernel_lean(), c->leanDecPerSm};
}

// Launches decode kernel ch.kernel for p on s; pdl: as a programmatic dependent of the kernel before it on s
// (it may start before that one ends; uzipGpuDecompressEither's second kernel).
int launch_dec_kernel(GpuCodec* c, DecParams p, const DecChoice& ch, uint64_t maxBlocks, cudaStream_t s, bool pdl) {
  uint64_t ctas, smLimit;
  grid_shape(c, ch.perSm, (maxBlocks + 3) / 4, &ctas, &smLimit);
  p.smLimit = (uint32_t)smLimit;
  void* args[] = {&p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)ctas);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = 4 * ch.warpBytes;
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = pdl ? 1 : 0;
  int st = uzipCudaCheck(cudaLaunchKernelExC(&cfg, (const void*)ch.kernel, args), "decompress kernel launch");
  if (st) reset_slots(c, s);
  return st;
}

// Enqueues the decompress kernel; `other` null: plain decode. dtypeHint: the stream's dtype as the caller
// knows it, or -1 (only picks a kernel). coding: the kernel's symbol coding (uzip_gpu::DEC_CODING_*), or
// DEC_EITHER: the lean kernel, then the byte kernel, each leaving the other's streams (DecParams::skipMask).
constexpr int DEC_EITHER = -1;
int launch_decompress(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                      uint64_t statusDev, uint64_t stream, uint64_t other, uint64_t count, int dtype, int op,
                      int dtypeHint, int coding = uzip_gpu::DEC_CODING_BYTES) {
  const bool lanes = coding == uzip_gpu::DEC_CODING_LANES, pairs = coding == uzip_gpu::DEC_CODING_PAIRS;
  const bool lean = coding == uzip_gpu::DEC_CODING_LEAN, either = coding == DEC_EITHER;
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  if (!src || (src & 15u)) return uzipSetError(UZIP_ERR_INVALID_ARG, "src must be a non-null 16-byte aligned pointer");
  if (!dst && dstCapacity) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst is null");
  if (statusDev & 3u) return uzipSetError(UZIP_ERR_INVALID_ARG, "statusDev is not 4-byte aligned");
  std::lock_guard<std::mutex> lock(c->mu);
  DeviceScope ds(c->device);
  if (ds.st) return ds.st;
  cudaStream_t s = (cudaStream_t)(uintptr_t)stream;
  if (int st = next_epoch(c, s)) return st;
  DecParams p{};
  p.src = (const uint8_t*)(uintptr_t)src;
  p.dst = (uint8_t*)(uintptr_t)dst;
  p.slots = c->slots;
  p.host = c->hostDev;
  p.statusDev = (unsigned int*)(uintptr_t)statusDev;
  p.srcBytes = srcBytes;
  p.dstCapacity = dst ? dstCapacity : 0;
  p.epoch = c->epoch;
  p.other = (const uint8_t*)(uintptr_t)other;
  p.redCount = count;
  p.redDtype = dtype;
  p.redOp = op;
  // Every block costs at least 16 payload bytes and 8 directory bytes, and holds at least 2^10 elements of
  // at least one byte that dst must hold: both bound the blocks to decode (the second is the tight one for
  // small streams: a 64 KiB bf16 stream launched ~450 CTAs for its 4 blocks). Warps loop over the blocks,
  // so any grid decodes them all.
  uint64_t maxBlocks = srcBytes > UZIP_HEADER_BYTES ? (srcBytes - UZIP_HEADER_BYTES) / 24 : 0;
  const uint64_t dstBlocks = (p.dstCapacity + (1ull << UZIP_LOG2_BLOCK_MIN) - 1) >> UZIP_LOG2_BLOCK_MIN;
  if (dstBlocks < maxBlocks) maxBlocks = dstBlocks;
  const int lanesVariant =
      c->lanesDecVariant == 1 || (dtypeHint >= 0 && uzip_dtype_width((uint32_t)dtypeHint) != 2) ? 1 : 0;
  // Both kernels of a pair share the call's epoch (its slot): the one that leaves a stream touches no slot word.
  auto launchPair = [&](const DecChoice& bytes) {
    p.skipMask = ~(1u << uzip_gpu::DEC_CODING_LEAN) & 31u;
    if (int st = launch_dec_kernel(c, p, choose_lean_decoder(c, p.dstCapacity), maxBlocks, s, false)) return st;
    p.skipMask = 1u << uzip_gpu::DEC_CODING_LEAN;
    return launch_dec_kernel(c, p, bytes, maxBlocks, s, c->eitherPdl);
  };
  if (either) return launchPair(choose_decoder(c, false, dtypeHint, p.dstCapacity));
  if (coding == uzip_gpu::DEC_CODING_BYTES && !other) {
    const DecChoice ch = choose_decoder(c, false, dtypeHint, p.dstCapacity);
    if (ch.kernel == dec_kernel_wide() && uzip_dec_wide_apart(c->decWideApart, p.dstCapacity))
      return launchPair(DecChoice{dec_kernel_wide_bytes(), c->decWideBytesPerSm});
  }
  const DecChoice ch = lanes   ? DecChoice{dec_kernel_lanes(lanesVariant), c->lanesDecPerSm[lanesVariant],
                                           lanes_dec_bytes(lanesVariant)}
                       : pairs ? DecChoice{dec_kernel_pairs(), c->pairsDecPerSm, uzip_gpu::PAIRS_DEC_WARP_BYTES}
                       : lean  ? (other ? DecChoice{dec_kernel_lean_fused(), c->leanFusedDecPerSm}
                                        : choose_lean_decoder(c, p.dstCapacity))
                               : choose_decoder(c, other != 0, dtypeHint, p.dstCapacity);
  return launch_dec_kernel(c, p, ch, maxBlocks, s, false);
}

// uzipGpuDecompressReduce and its lean twin: the call's checks, then the fused kernel of that coding.
int launch_decompress_reduce(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t other,
                             uint64_t count, int dtype, int op, uint64_t statusDev, uint64_t stream, int coding) {
  if (!coll_dtype_reducible(dtype))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "dtype %d has no reduction (bf16, fp16, fp32, fp8 only)", dtype);
  const bool premul = op > COLL_OP_PREMUL_BASE && op <= COLL_OP_PREMUL_BASE + 65536 &&
                      (dtype == COLL_BF16 || dtype == COLL_FP16 || dtype == COLL_FP32);
  if (!(op >= UZIP_OP_SUM && op <= UZIP_OP_AVG) && !premul)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "op %d is not 0-4 or 64 + nranks (bf16, fp16, fp32)", op);
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  if (count && (!dst || !other)) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst or other is null");
  if ((dst | other) % w) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst and other must be %u-byte aligned", w);
  if (count > (1ull << 48))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "count %llu is too large", (unsigned long long)count);
  if (count && dst < other + count * w && other < dst + count * w)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "dst and other overlap (each block is decoded into dst first)");
  // other is never null here, so the kernel always runs the fused path (count 0: nothing to reduce).
  return launch_decompress(ctx, src, srcBytes, dst ? dst : other, count * w, statusDev, stream,
                           other ? other : src, count, dtype, op, dtype, coding);
}

}  // namespace

extern "C" {

UZIP_API int uzipGpuCodecCreate(int32_t device, int32_t maxSms, uint64_t* outCtx) {
  uzipClearError();
  if (!outCtx) return uzipSetError(UZIP_ERR_INVALID_ARG, "outCtx is null");
  *outCtx = 0;
  if (maxSms < 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "maxSms %d is negative", maxSms);
  if (int st = uzipCudaCheckDevice(device)) return st;
  DeviceScope ds(device);
  if (ds.st) return ds.st;
  GpuCodec* c = new (std::nothrow) GpuCodec();
  if (!c) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot allocate a codec context");
  c->device = device;
  c->maxSms = maxSms;
  c->encVariant = env_variant("UZIP_GPU_ENC_VARIANT", kEncVariants - 1);
  c->encSymStage = env_variant("UZIP_GPU_ENC_SYMSTAGE", 1);
  c->decVariant = env_variant("UZIP_GPU_DEC_VARIANT", 4);
  c->decWideApart = env_variant("UZIP_GPU_DEC_WIDE_APART", 1);
  c->lanesEncVariant = env_variant("UZIP_GPU_LANES_ENC_VARIANT", kLanesEncVariants - 1);
  c->lanesDecVariant = env_variant("UZIP_GPU_LANES_DEC_VARIANT", 1);
  c->leanDecVariant = env_variant("UZIP_GPU_LEAN_DEC_VARIANT", 1);
  c->eitherPdl = env_variant("UZIP_GPU_EITHER_PDL", 1) != 0;  // on unless set to 0
  c->spreadSmallCalls = env_variant("UZIP_GPU_STRICT_BUDGET", 1) == 0;
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device);
  c->sms = v > 0 ? v : 1;
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  c->maxSmemOptin = v > 0 ? v : 48 * 1024;
  int st = uzipCudaCheck(cudaMalloc(&c->slots, 2 * sizeof(GpuSlot)), "cudaMalloc (codec slots)");
  if (!st) st = uzipCudaCheck(cudaMemset(c->slots, 0, 2 * sizeof(GpuSlot)), "cudaMemset");
  if (!st) st = uzipCudaCheck(cudaHostAlloc(&c->host, sizeof(GpuHostWords), cudaHostAllocMapped), "cudaHostAlloc");
  if (!st) st = uzipCudaCheck(cudaHostGetDevicePointer((void**)&c->hostDev, c->host, 0), "cudaHostGetDevicePointer");
  if (!st) {
    memset(c->host, 0, sizeof(GpuHostWords));
    if (!st) st = dec_prepare(dec_kernel(c->decVariant), &c->decPerSm, (int)dec_warp_bytes(c->decVariant));
    if (!st) st = dec_prepare(dec_kernel_fused(), &c->decFusedPerSm);
    if (!st) st = dec_prepare(dec_kernel_wide(), &c->decWidePerSm);
    if (!st) st = dec_prepare(dec_kernel_wide_bytes(), &c->decWideBytesPerSm);
    if (!st) st = dec_prepare(dec_kernel_one_round(), &c->decOneRoundPerSm);
    if (!st) st = dec_prepare(dec_kernel(4), &c->decCompactPerSm, (int)uzip_gpu::DEC_COMPACT_WARP_BYTES);
    for (int v = 0; v < 2 && !st; v++) st = dec_prepare(dec_kernel_lanes(v), &c->lanesDecPerSm[v], (int)lanes_dec_bytes(v));
    if (!st) st = dec_prepare(dec_kernel_pairs(), &c->pairsDecPerSm, (int)uzip_gpu::PAIRS_DEC_WARP_BYTES);
    if (!st) st = dec_prepare(dec_kernel_lean(), &c->leanDecPerSm);
    if (!st)
      st = dec_prepare(dec_kernel_lean_compact(), &c->leanCompactDecPerSm, (int)uzip_gpu::DEC_COMPACT_WARP_BYTES);
    if (!st) st = dec_prepare(dec_kernel_lean_fused(), &c->leanFusedDecPerSm);
  }
  if (st) {
    if (c->slots) cudaFree(c->slots);
    if (c->host) cudaFreeHost(c->host);
    delete c;
    return st;
  }
  c->magic = kCtxMagic;
  *outCtx = (uint64_t)(uintptr_t)c;
  return UZIP_OK;
}

UZIP_API int uzipGpuCodecDestroy(uint64_t ctx) {
  uzipClearError();
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  DeviceScope ds(c->device);
  c->magic = 0;
  cudaFree(c->slots);
  if (c->lookback) cudaFree(c->lookback);
  if (c->scratch) cudaFree(c->scratch);
  cudaFreeHost(c->host);
  delete c;
  return UZIP_OK;
}

UZIP_API int uzipGpuCodecSetMaxSms(uint64_t ctx, int32_t maxSms) {
  uzipClearError();
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  if (maxSms < 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "maxSms %d is negative", maxSms);
  c->maxSms = maxSms;
  return UZIP_OK;
}

UZIP_API int uzipGpuCompress(uint64_t ctx, uint64_t src, uint64_t count, int dtype, uint32_t flags,
                             uint32_t log2Block, uint64_t dst, uint64_t dstCapacity, uint64_t outSizeDev,
                             uint64_t stream) {
  uzipClearError();
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  if (int st = uzipCheckCodecArgs(dtype, &flags, &log2Block, count)) return st;
  // FORMAT.md "Pair coding": the GPU encoder takes the split layout and one segment a block (the CPU codec
  // every layout and block size).
  if ((flags & UZIP_FLAG_PAIRS) && (!(flags & UZIP_FLAG_SPLIT) || log2Block > uzip_gpu::PAIRS_LOG2_BLOCK_MAX))
    return uzipSetError(UZIP_ERR_UNSUPPORTED, "the GPU codec codes pairs (flag 0x%x) in the split layout and in "
                        "blocks of at most 2^%u elements: compress on the CPU", UZIP_FLAG_PAIRS,
                        uzip_gpu::PAIRS_LOG2_BLOCK_MAX);
  const uint32_t w = uzip_dtype_width((uint32_t)dtype);
  if (!src && count) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is null");
  if (src % w) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is not aligned to the %u-byte element", w);
  if (!dst || (dst & 15u)) return uzipSetError(UZIP_ERR_INVALID_ARG, "dst must be a non-null 16-byte aligned pointer");
  if (outSizeDev & 7u) return uzipSetError(UZIP_ERR_INVALID_ARG, "outSizeDev is not 8-byte aligned");
  const uint64_t bound = uzip_max_compressed_size(count, (uint32_t)dtype, flags, log2Block);
  if (dstCapacity < bound)
    return uzipSetError(UZIP_ERR_BUFFER_TOO_SMALL, "dst holds %llu bytes, the bound is %llu (uzipMaxCompressedSize)",
                        (unsigned long long)dstCapacity, (unsigned long long)bound);
  std::lock_guard<std::mutex> lock(c->mu);
  DeviceScope ds(c->device);
  if (ds.st) return ds.st;
  cudaStream_t s = (cudaStream_t)(uintptr_t)stream;
  const uint64_t nblocks = uzip_nblocks(count, log2Block);
  if (int st = ensure_lookback(c, nblocks, s)) return st;
  if (int st = next_epoch(c, s)) return st;
  EncParams p{};
  p.src = (const uint8_t*)(uintptr_t)src;
  p.dst = (uint8_t*)(uintptr_t)dst;
  p.lookback = c->lookback;
  p.slots = c->slots;
  p.host = c->hostDev;
  p.outSizeDev = (unsigned long long*)(uintptr_t)outSizeDev;
  p.count = count;
  p.dirOff = uzip_dir_offset(count, (uint32_t)dtype, flags, log2Block);
  p.payloadOff = uzip_payload_offset(count, (uint32_t)dtype, flags, log2Block);
  p.dtype = (uint32_t)dtype;
  p.flags = flags;
  p.log2Block = log2Block;
  p.nblocks = (uint32_t)nblocks;
  p.epoch = c->epoch;
  p.srcAligned16 = (src & 15u) == 0;
  int st;
  if (flags & UZIP_FLAG_PAIRS)
    st = w == 2 ? launch_pairs_compress<2>(c, p, s) : launch_pairs_compress<4>(c, p, s);
  else if (flags & UZIP_FLAG_LANES)
    st = w == 1 ? launch_lanes_compress<1>(c, p, s) : w == 2 ? launch_lanes_compress<2>(c, p, s)
                                                           : launch_lanes_compress<4>(c, p, s);
  else
    st = w == 1 ? launch_compress<1>(c, p, s) : w == 2 ? launch_compress<2>(c, p, s) : launch_compress<4>(c, p, s);
  if (st) reset_slots(c, s);
  return st;
}


UZIP_API int uzipGpuDecompress(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                               uint64_t statusDev, uint64_t stream) {
  return uzipGpuDecompressAs(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, -1);
}

UZIP_API int uzipGpuDecompressAs(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                 uint64_t statusDev, uint64_t stream, int dtype) {
  uzipClearError();
  if (dtype < -1 || dtype >= (int)UZIP_DTYPE_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "dtype %d is neither -1 nor a dtype id", dtype);
  return launch_decompress(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, 0, 0, 0, 0, dtype);
}

UZIP_API int uzipGpuDecompressLanes(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                    uint64_t statusDev, uint64_t stream, int32_t dtype) {
  uzipClearError();
  if (dtype < -1 || dtype >= (int)UZIP_DTYPE_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "dtype %d is neither -1 nor a dtype id", dtype);
  return launch_decompress(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, 0, 0, 0, 0, dtype,
                           uzip_gpu::DEC_CODING_LANES);
}

UZIP_API int uzipGpuDecompressEither(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                     uint64_t statusDev, uint64_t stream, int32_t dtype) {
  uzipClearError();
  if (dtype < -1 || dtype >= (int)UZIP_DTYPE_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "dtype %d is neither -1 nor a dtype id", dtype);
  return launch_decompress(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, 0, 0, 0, 0, dtype, DEC_EITHER);
}

UZIP_API int uzipGpuDecompressPairs(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                    uint64_t statusDev, uint64_t stream) {
  uzipClearError();
  return launch_decompress(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, 0, 0, 0, 0, -1,
                           uzip_gpu::DEC_CODING_PAIRS);
}

UZIP_API int uzipGpuDecompressLean(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                   uint64_t statusDev, uint64_t stream) {
  uzipClearError();
  return launch_decompress(ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, 0, 0, 0, 0, -1,
                           uzip_gpu::DEC_CODING_LEAN);
}

UZIP_API int uzipGpuDecompressReduce(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t other,
                                     uint64_t count, int dtype, int op, uint64_t statusDev, uint64_t stream) {
  uzipClearError();
  return launch_decompress_reduce(ctx, src, srcBytes, dst, other, count, dtype, op, statusDev, stream,
                                  uzip_gpu::DEC_CODING_BYTES);
}

UZIP_API int uzipGpuDecompressReduceLean(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t other,
                                         uint64_t count, int dtype, int op, uint64_t statusDev, uint64_t stream) {
  uzipClearError();
  return launch_decompress_reduce(ctx, src, srcBytes, dst, other, count, dtype, op, statusDev, stream,
                                  uzip_gpu::DEC_CODING_LEAN);
}

UZIP_API int uzipGpuCodecLastSize(uint64_t ctx, uint64_t* outBytes) {
  uzipClearError();
  if (!outBytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "outBytes is null");
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  *outBytes = *(volatile unsigned long long*)&c->host->size;
  return UZIP_OK;
}

#ifdef UZIP_STAGE_CLOCKS
// Profiling builds only: copies the 32 stage-cycle accumulators (see gpu_warp.cuh) and clears them.
UZIP_API int uzipGpuDebugStageClocks(uint64_t* out32) {
  if (int st = uzipCudaCheck(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) return st;
  if (int st = uzipCudaCheck(cudaMemcpyFromSymbol(out32, g_uzip_stage_clk, 32 * 8), "cudaMemcpyFromSymbol")) return st;
  static const unsigned long long zero[32] = {0};
  return uzipCudaCheck(cudaMemcpyToSymbol(g_uzip_stage_clk, zero, sizeof zero), "cudaMemcpyToSymbol");
}
#endif

UZIP_API int uzipGpuCodecLastStatus(uint64_t ctx, int32_t* outStatus) {
  uzipClearError();
  if (!outStatus) return uzipSetError(UZIP_ERR_INVALID_ARG, "outStatus is null");
  GpuCodec* c;
  if (int st = get_ctx(ctx, &c)) return st;
  *outStatus = *(volatile int*)&c->host->status;
  return UZIP_OK;
}

}  // extern "C"
