// The C ABI of libuzip.so, the only surface that ffi/ binds.
//
// Rules: every function returns a uzip_status; on failure a thread-local message explains it
// (uzipLastError). No C++ exception crosses this boundary and no input aborts the process. Lengths are
// 64-bit. Handles (codec contexts, streams, events, device pointers, communicators) are opaque u64.
// Inputs are validated before any kernel launch or memory access.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UZIP_API __attribute__((visibility("default")))

typedef enum uzip_status {
  UZIP_OK = 0,
  UZIP_ERR_INVALID_ARG = 1,       // a bad argument (null pointer, unknown dtype, bad flags, ...)
  UZIP_ERR_CORRUPT = 2,           // the stream is not a valid uzip stream (forged or damaged)
  UZIP_ERR_TRUNCATED = 3,         // the stream is shorter than its header says
  UZIP_ERR_BUFFER_TOO_SMALL = 4,  // the destination cannot hold the result
  UZIP_ERR_UNSUPPORTED = 5,       // a valid stream of a version or feature this build does not know
  UZIP_ERR_CHECKSUM = 6,          // decoded data does not match the stored checksum
  UZIP_ERR_CUDA = 7,              // a CUDA runtime call failed (message carries cudaGetErrorString)
  UZIP_ERR_NO_DEVICE = 8,         // no CUDA device / driver present
  UZIP_ERR_NCCL = 9,              // NCCL missing, too old, or a NCCL call failed
  UZIP_ERR_OUT_OF_MEMORY = 10,    // host or device allocation failed
  UZIP_ERR_TIMEOUT = 11,          // a peer or a stream did not complete in time
  UZIP_ERR_INTERNAL = 12,         // a bug in libuzip: please report
} uzip_status;

// Library identity.
UZIP_API int uzipVersion(void);  // major*10000 + minor*100 + patch
UZIP_API int uzipFormatVersion(void);
// The message of the last failure on this thread ("" when none). Valid until the next call on it.
UZIP_API const char* uzipLastError(void);
UZIP_API const char* uzipStatusName(int status);
// What this build holds: UZIP_FEATURE_CUDA (the GPU codec, device memory, streams) and UZIP_FEATURE_NCCL
// (communicators, P2P, collectives). A build made without nvcc (scripts/build.sh --cpu-only) has neither:
// it exports the identity, error, inspection and CPU codec functions only.
#define UZIP_FEATURE_CUDA 1
#define UZIP_FEATURE_NCCL 2
UZIP_API int uzipBuildFeatures(void);

// ---------------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------------
// Compression options (flags argument): the header flags UZIP_FLAG_CHECKSUM (0x01) and UZIP_FLAG_SPLIT
// (0x02) from uzip_format.h. log2Block: 0 means the library's default (uzip_default_log2_block; and for split
// tensors without the lean, lanes or pairs flags, lean sections in 2^12-element blocks for bf16 / fp32 of at
// most 2^23 elements, in 2^13-element blocks for those and fp16 of at most 2^24: uzip_default_lean_log2, which
// every entry that compresses or bounds a stream applies alike); else 10..16.
UZIP_API int uzipMaxCompressedSize(int dtype, uint64_t count, uint32_t flags, uint32_t log2Block,
                                   uint64_t* outBytes);

// What a stream holds, read from its header and directory (validated, nothing decoded).
typedef struct uzip_info {
  uint64_t version, dtype, flags, log2Block;
  uint64_t count;         // elements
  uint64_t rawBytes;      // count * width
  uint64_t totalBytes;    // stream size
  uint64_t nblocks;
  uint64_t checksum;
  uint64_t symbolBytes;   // bytes of all symbol-plane sections (padded)
  uint64_t remainderBytes;// bytes of all remainder sections (padded), split plane included
  uint64_t symRaw, symConst, symAns;  // blocks per symbol-plane mode
  uint64_t remRaw, remConst, remAns;  // blocks per remainder-plane mode (external/none not counted)
} uzip_info;
#define UZIP_INFO_FIELDS 17
UZIP_API int uzipInspect(const void* src, uint64_t srcBytes, uzip_info* out);

// ---------------------------------------------------------------------------------------------------
// CPU reference codec (the oracle; also the backend when no GPU is present). Thread-safe.
// ---------------------------------------------------------------------------------------------------
UZIP_API int uzipCompressCpu(const void* src, uint64_t count, int dtype, uint32_t flags, uint32_t log2Block,
                             void* dst, uint64_t dstCapacity, uint64_t* outBytes);
// Decodes a whole stream into dst (count * width bytes); outBytes receives that size.
UZIP_API int uzipDecompressCpu(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                               uint64_t* outBytes);
// The same on several threads, each taking whole blocks: the same bytes, and on failure the status and
// message of the first failing block in stream order (a decode writes dst only inside its blocks, in any
// order). threads: 1 the calling thread only (the functions above); n > 1 up to n; 0 the machine's hardware
// threads, at most $UZIP_CPU_THREADS when set and one per 4 blocks. Compression runs on one thread unless
// dstCapacity is at least uzipMaxCompressedSize (each block is coded into its own slot of that bound, then
// moved down to its place).
UZIP_API int uzipCompressCpuMt(const void* src, uint64_t count, int dtype, uint32_t flags, uint32_t log2Block,
                               void* dst, uint64_t dstCapacity, uint64_t* outBytes, int32_t threads);
UZIP_API int uzipDecompressCpuMt(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                                 uint64_t* outBytes, int32_t threads);
// The same with the failure message also copied into msg (msgCapacity bytes, NUL-terminated; msg may be
// null), for callers whose call runs on a thread other than the one that could read uzipLastError (Deno's
// nonblocking FFI calls, koffi's async ones).
UZIP_API int uzipCompressCpuMsg(const void* src, uint64_t count, int dtype, uint32_t flags, uint32_t log2Block,
                                void* dst, uint64_t dstCapacity, uint64_t* outBytes, int32_t threads, char* msg,
                                uint64_t msgCapacity);
UZIP_API int uzipDecompressCpuMsg(const void* src, uint64_t srcBytes, void* dst, uint64_t dstCapacity,
                                  uint64_t* outBytes, int32_t threads, char* msg, uint64_t msgCapacity);

// ---------------------------------------------------------------------------------------------------
// CUDA device, memory, streams, events. All loaded lazily: with no driver, uzipCudaDeviceCount reports
// 0 and everything else returns UZIP_ERR_NO_DEVICE. Device pointers, streams and events are u64.
// stream 0 means the device's legacy default stream.
// ---------------------------------------------------------------------------------------------------
UZIP_API int uzipCudaDeviceCount(int32_t* out);
// name: caller buffer of nameCapacity bytes. info: u64[8] = {smCount, totalMem, l2Bytes, ccMajor,
// ccMinor, pciBusId, driverVersion, runtimeVersion}.
UZIP_API int uzipCudaDeviceInfo(int32_t device, char* name, uint64_t nameCapacity, uint64_t* info8);
UZIP_API int uzipCudaMalloc(int32_t device, uint64_t bytes, uint64_t* outPtr);
UZIP_API int uzipCudaFree(uint64_t ptr);
UZIP_API int uzipCudaMallocHost(uint64_t bytes, uint64_t* outPtr);  // pinned host memory
UZIP_API int uzipCudaFreeHost(uint64_t ptr);
// Copies are stream-ordered. uzipCudaMemcpyAsync infers the kind (unified addressing); ToHost and FromHost
// wait for the copy, and their device side must be device memory: an address that no allocation holds
// is an error (UZIP_ERR_CUDA), never read or written as host memory.
UZIP_API int uzipCudaMemcpyAsync(uint64_t dst, uint64_t src, uint64_t bytes, uint64_t stream);
UZIP_API int uzipCudaMemcpyToHost(void* dst, uint64_t src, uint64_t bytes, uint64_t stream);
UZIP_API int uzipCudaMemcpyFromHost(uint64_t dst, const void* src, uint64_t bytes, uint64_t stream);
UZIP_API int uzipCudaMemsetAsync(uint64_t dst, int32_t value, uint64_t bytes, uint64_t stream);
UZIP_API int uzipStreamCreate(int32_t device, uint64_t* outStream);
UZIP_API int uzipStreamDestroy(uint64_t stream);
UZIP_API int uzipStreamSynchronize(uint64_t stream);  // ffi binds a nonblocking twin too
UZIP_API int uzipEventCreate(int32_t device, uint64_t* outEvent);
UZIP_API int uzipEventDestroy(uint64_t event);
UZIP_API int uzipEventRecord(uint64_t event, uint64_t stream);
UZIP_API int uzipEventSynchronize(uint64_t event);
UZIP_API int uzipEventElapsedMs(uint64_t start, uint64_t end, float* outMs);
UZIP_API int uzipStreamWaitEvent(uint64_t stream, uint64_t event);

// ---------------------------------------------------------------------------------------------------
// GPU codec. A context owns the scratch a device needs (look-back flags, a host-mapped size word) and
// the number of SMs it may occupy (0 = the whole chip). Under a budget of k < all SMs, every call leaves
// SMs k.. (by SM id) without codec work, so that kernels on other streams (NCCL's) find whole SMs (since
// session 44 small calls too: UZIP_GPU_STRICT_BUDGET=0 lets a call of at most the budget's CTAs spread them
// over the chip, the rule before; cuda/grid_shape.h). Since session 45 a compression of fewer CTAs of work than
// the budget holds works on at most ceil(work / budget) CTAs an SM of the budget (UzipGrid::perSmCap).
// UZIP_GPU_ENC_VARIANT (0..3) / UZIP_GPU_DEC_VARIANT (0..4), read at context creation, pick a kernel variant
// for tuning (cuda/gpu_codec.cu); 0 is the default. Device memory: the first compress allocates the
// kernel's word stages, two per resident warp: about 140 MB for bf16/fp16 and 70 MB otherwise on an H200
// at the default block (more for larger blocks); they stay with the context until it is destroyed.
// ---------------------------------------------------------------------------------------------------
UZIP_API int uzipGpuCodecCreate(int32_t device, int32_t maxSms, uint64_t* outCtx);
UZIP_API int uzipGpuCodecDestroy(uint64_t ctx);
UZIP_API int uzipGpuCodecSetMaxSms(uint64_t ctx, int32_t maxSms);
// Enqueues compression of `count` elements at device pointer src into dst (capacity dstCapacity, at least
// uzipMaxCompressedSize) on `stream`. The compressed size is written (u64) to the device pointer
// outSizeDev when it is non-zero, and to the context's host-mapped word, readable with
// uzipGpuCodecLastSize after the stream has passed this point. The output is bit-identical to
// uzipCompressCpu with the same arguments.
UZIP_API int uzipGpuCompress(uint64_t ctx, uint64_t src, uint64_t count, int dtype, uint32_t flags,
                             uint32_t log2Block, uint64_t dst, uint64_t dstCapacity, uint64_t outSizeDev,
                             uint64_t stream);
// Enqueues decompression of the stream at src (srcBytes readable) into dst (capacity dstCapacity).
// Because the stream lives in device memory the header is validated by the kernel; the status of the
// decode (a uzip_status) is written to statusDev (device u32, may be 0) and to the context's mapped
// word, readable with uzipGpuCodecLastStatus after the stream has passed this point. Nothing is ever
// written outside [dst, dst + dstCapacity). Streams with lean sections decode here too (out of line in the
// kernel, so that the default coding's path is unchanged; uzipGpuDecompressLean is faster for large ones).
UZIP_API int uzipGpuDecompress(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst,
                               uint64_t dstCapacity, uint64_t statusDev, uint64_t stream);
// uzipGpuDecompress for a caller that knows the stream's dtype (or passes -1): the dtype only picks the
// decode kernel tuned for it (fp32 streams decode 8-19% faster in their own kernel when the codec may
// use at least half the GPU's SMs; under smaller budgets the default kernel is faster). The kernel still
// validates the header, and a stream of any other dtype decodes exactly as well, only at that kernel's
// speed. INVALID_ARG for a dtype that is neither -1 nor a dtype id.
UZIP_API int uzipGpuDecompressAs(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst,
                                 uint64_t dstCapacity, uint64_t statusDev, uint64_t stream, int dtype);
// Fused decode and reduce, one kernel: dst = decode(src) op other, elementwise, where dst and other hold
// `count` elements of `dtype` (a float type) and the stream must hold exactly that. op: 0 sum, 1 prod,
// 2 max, 3 min, 4 avg over contributions already scaled (fp8), or 64 + n: fold this rank's element into
// a received partial of an n-rank avg (other * (1/n) + decoded, one rounding). The result is bit-identical
// to decoding into a buffer and reducing it with the collectives' element arithmetic (nccl/coll_reduce.h;
// decoded is the received partial, other this rank's own element). dst must not overlap other (a block is
// decoded into dst before it is reduced); the status as for uzipGpuDecompress (INVALID_ARG when the
// stream's dtype or count differ from the call's).
// uzipGpuDecompress for lane streams (FORMAT.md "Lane streams", flag UZIP_FLAG_LANES), which the other
// decode entry points refuse (status UNSUPPORTED); here any other stream gives INVALID_ARG. dtype: the
// stream's dtype as the caller knows it, or -1; as for uzipGpuDecompressAs it only picks the kernel.
UZIP_API int uzipGpuDecompressLanes(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                    uint64_t statusDev, uint64_t stream, int32_t dtype);
// uzipGpuDecompress for pair-coded streams (FORMAT.md "Pair coding", flag UZIP_FLAG_PAIRS) in the split layout,
// which the other decode entry points refuse (status UNSUPPORTED); here any other stream gives INVALID_ARG, and
// a pair stream in the default layout UNSUPPORTED (the CPU codec decodes it).
UZIP_API int uzipGpuDecompressPairs(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                    uint64_t statusDev, uint64_t stream);
// uzipGpuDecompress for streams with lean sections (FORMAT.md "Lean sections", flag UZIP_FLAG_LEAN) in their own
// kernels (which uzipGpuDecompress and uzipGpuDecompressAs also decode, out of line); here any other stream gives
// INVALID_ARG.
UZIP_API int uzipGpuDecompressLean(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                   uint64_t statusDev, uint64_t stream);
// uzipGpuDecompressAs for a stream that may or may not have lean sections (not lane streams or pair coding, which
// it refuses with status UNSUPPORTED): it enqueues the lean kernel and then the default one (a programmatic
// dependent launch, so that it may start at once), and the kernel whose coding the stream is not leaves it at
// its header without touching dst or the status (a damaged header is reported by the second). On an H200,
// bf16 split (bench/results/h200-2026-12-05-session40/1-either-leancompact): a lean stream of 2^12 blocks
// decodes in ~1 us more than through uzipGpuDecompressLean (1 MiB 21.2 -> 22.1 us back to back, 16 MiB 25.1 ->
// 26.2), a default stream in 4-10 us more than through uzipGpuDecompress (1 MiB 31.3 -> 41.1, 16 MiB 32.2 ->
// 37.3; 256 MiB -2%; on an H100 9-15 us: h100-2026-12-05-session40/4-small-lean-either). dtype as for
// uzipGpuDecompressAs.
UZIP_API int uzipGpuDecompressEither(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t dstCapacity,
                                     uint64_t statusDev, uint64_t stream, int32_t dtype);
UZIP_API int uzipGpuDecompressReduce(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t other,
                                     uint64_t count, int dtype, int op, uint64_t statusDev, uint64_t stream);
// uzipGpuDecompressReduce for streams with lean sections (FORMAT.md "Lean sections") in their own kernel (which
// uzipGpuDecompressReduce also decodes, out of line); here any other stream gives INVALID_ARG. Same arguments,
// checks and result.
UZIP_API int uzipGpuDecompressReduceLean(uint64_t ctx, uint64_t src, uint64_t srcBytes, uint64_t dst, uint64_t other,
                                         uint64_t count, int dtype, int op, uint64_t statusDev, uint64_t stream);
UZIP_API int uzipGpuCodecLastSize(uint64_t ctx, uint64_t* outBytes);
UZIP_API int uzipGpuCodecLastStatus(uint64_t ctx, int32_t* outStatus);

#ifdef __cplusplus
}
#endif
