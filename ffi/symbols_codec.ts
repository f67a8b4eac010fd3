/**
 * FFI signatures of the library identity, error and CPU codec functions of `cuda/uzip.h`.
 *
 * Conventions (shared by every `ffi/symbols_*.ts`): every function returns an `i32` uzip_status;
 * 64-bit lengths are `"u64"` (bigint in TS); host arrays, including out-parameters, are `"buffer"`.
 *
 * @module
 */

/** Identity, last-error and CPU codec symbols. */
export const codecSymbols = {
  uzipVersion: { parameters: [], result: "i32" },
  uzipFormatVersion: { parameters: [], result: "i32" },
  /** UZIP_FEATURE_CUDA (1) | UZIP_FEATURE_NCCL (2); 0 for a CPU-only build (`scripts/build.sh --cpu-only`) */
  uzipBuildFeatures: { parameters: [], result: "i32" },
  /** Returns `const char*`, valid until the next libuzip call on this thread. */
  uzipLastError: { parameters: [], result: "pointer" },
  uzipStatusName: { parameters: ["i32"], result: "pointer" },
  /** (dtype, count, flags, log2Block, u64* outBytes) */
  uzipMaxCompressedSize: { parameters: ["i32", "u64", "u32", "u32", "buffer"], result: "i32" },
  /** (src, srcBytes, uzip_info* out: u64[17]) */
  uzipInspect: { parameters: ["buffer", "u64", "buffer"], result: "i32" },
  /** (src, count, dtype, flags, log2Block, dst, dstCapacity, u64* outBytes) */
  uzipCompressCpu: {
    parameters: ["buffer", "u64", "i32", "u32", "u32", "buffer", "u64", "buffer"],
    result: "i32",
  },
  /** (src, srcBytes, dst, dstCapacity, u64* outBytes) */
  uzipDecompressCpu: { parameters: ["buffer", "u64", "buffer", "u64", "buffer"], result: "i32" },
  /** uzipCompressCpu's arguments, then threads (0: automatic; on several threads only into a bound-sized dst) */
  uzipCompressCpuMt: {
    parameters: ["buffer", "u64", "i32", "u32", "u32", "buffer", "u64", "buffer", "i32"],
    result: "i32",
  },
  /** uzipDecompressCpu's arguments, then threads (0: automatic) */
  uzipDecompressCpuMt: { parameters: ["buffer", "u64", "buffer", "u64", "buffer", "i32"], result: "i32" },
  /** uzipCompressCpuMt's arguments, then (char* msg, u64 msgCapacity): the failure message, for a worker thread */
  uzipCompressCpuMsg: {
    parameters: ["buffer", "u64", "i32", "u32", "u32", "buffer", "u64", "buffer", "i32", "buffer", "u64"],
    result: "i32",
    nonblocking: true,
  },
  /** uzipDecompressCpuMt's arguments, then (char* msg, u64 msgCapacity) */
  uzipDecompressCpuMsg: {
    parameters: ["buffer", "u64", "buffer", "u64", "buffer", "i32", "buffer", "u64"],
    result: "i32",
    nonblocking: true,
  },
} as const satisfies Deno.ForeignLibraryInterface;
