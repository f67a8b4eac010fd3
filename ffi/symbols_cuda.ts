/**
 * FFI signatures of the CUDA device, memory, stream, event and GPU codec functions of `cuda/uzip.h`.
 * Device pointers, streams, events and codec contexts are opaque `"u64"` handles (bigint in TS).
 *
 * @module
 */

/** CUDA resources and the GPU codec. */
export const cudaSymbols = {
  uzipCudaDeviceCount: { parameters: ["buffer"], result: "i32" },
  /** (device, char* name, nameCapacity, u64 info[8]) */
  uzipCudaDeviceInfo: { parameters: ["i32", "buffer", "u64", "buffer"], result: "i32" },
  uzipCudaMalloc: { parameters: ["i32", "u64", "buffer"], result: "i32" },
  uzipCudaFree: { parameters: ["u64"], result: "i32" },
  uzipCudaMallocHost: { parameters: ["u64", "buffer"], result: "i32" },
  uzipCudaFreeHost: { parameters: ["u64"], result: "i32" },
  /** (dst, src, bytes, stream), device or pinned pointers on both sides. */
  uzipCudaMemcpyAsync: { parameters: ["u64", "u64", "u64", "u64"], result: "i32" },
  /** (host dst, device src, bytes, stream): returns when the copy is done. */
  uzipCudaMemcpyToHost: { parameters: ["buffer", "u64", "u64", "u64"], result: "i32" },
  /** (device dst, host src, bytes, stream): returns when the copy is done. */
  uzipCudaMemcpyFromHost: { parameters: ["u64", "buffer", "u64", "u64"], result: "i32" },
  uzipCudaMemsetAsync: { parameters: ["u64", "i32", "u64", "u64"], result: "i32" },
  uzipStreamCreate: { parameters: ["i32", "buffer"], result: "i32" },
  uzipStreamDestroy: { parameters: ["u64"], result: "i32" },
  uzipStreamSynchronize: { parameters: ["u64"], result: "i32" },
  /** The same C function on a worker thread: the returned Promise settles when the stream is idle. */
  uzipStreamSynchronizeAsync: {
    name: "uzipStreamSynchronize",
    parameters: ["u64"],
    result: "i32",
    nonblocking: true,
  },
  uzipEventCreate: { parameters: ["i32", "buffer"], result: "i32" },
  uzipEventDestroy: { parameters: ["u64"], result: "i32" },
  uzipEventRecord: { parameters: ["u64", "u64"], result: "i32" },
  uzipEventSynchronize: { parameters: ["u64"], result: "i32" },
  /** The same C function on a worker thread. */
  uzipEventSynchronizeAsync: {
    name: "uzipEventSynchronize",
    parameters: ["u64"],
    result: "i32",
    nonblocking: true,
  },
  /** (start, end, float* outMs) */
  uzipEventElapsedMs: { parameters: ["u64", "u64", "buffer"], result: "i32" },
  uzipStreamWaitEvent: { parameters: ["u64", "u64"], result: "i32" },

  uzipGpuCodecCreate: { parameters: ["i32", "i32", "buffer"], result: "i32" },
  uzipGpuCodecDestroy: { parameters: ["u64"], result: "i32" },
  uzipGpuCodecSetMaxSms: { parameters: ["u64", "i32"], result: "i32" },
  /** (ctx, src, count, dtype, flags, log2Block, dst, dstCapacity, outSizeDev, stream) */
  uzipGpuCompress: {
    parameters: ["u64", "u64", "u64", "i32", "u32", "u32", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream) */
  uzipGpuDecompress: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, dtype or -1) */
  uzipGpuDecompressAs: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64", "i32"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, dtype or -1): lane streams only */
  uzipGpuDecompressLanes: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64", "i32"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream): pair-coded streams (split layout) only */
  uzipGpuDecompressPairs: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream): streams with lean sections only */
  uzipGpuDecompressLean: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  /** (ctx, src, srcBytes, dst, dstCapacity, statusDev, stream, dtype): streams with or without lean sections */
  uzipGpuDecompressEither: {
    parameters: ["u64", "u64", "u64", "u64", "u64", "u64", "u64", "i32"],
    result: "i32",
  },
  uzipGpuCodecLastSize: { parameters: ["u64", "buffer"], result: "i32" },
  uzipGpuCodecLastStatus: { parameters: ["u64", "buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;
