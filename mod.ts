/**
 * @uccl/zip: lossless compression of floating-point tensors for GPU communication.
 *
 * Each float is split into an exponent "symbol" byte, rANS-coded with frequency tables local to each
 * block, and a raw remainder (sign and mantissa). The codec runs on the CPU (the reference, and the
 * backend without a GPU) and on CUDA GPUs, producing the same bytes. The native code is one shared
 * library, `libuzip.so`, bound with `Deno.dlopen` (see `ffi/`): in a clone, `build/libuzip.so` from
 * `deno task build`; imported from JSR, a per-user cache that `deno run -A jsr:@uccl/zip@<version>/build`
 * fills (it fetches the native sources and checks their digests before compiling); or the file that the
 * `UZIP_LIB` environment variable names. Built where nvcc is missing, the library holds the CPU codec
 * alone ({@linkcode libraryFeatures}). The stream format is `docs/FORMAT.md`.
 *
 * @example
 * ```ts
 * import { compress, decompress, inspect } from "@uccl/zip";
 *
 * const bf16 = new Uint16Array(1 << 16).map((_, i) => 0x3c00 + ((i * 2654435761) >>> 24));
 * const stream = compress(bf16, "bf16", { checksum: true });
 * console.log(inspect(stream).ratio);
 * const back = new Uint16Array(decompress(stream).slice().buffer);
 * ```
 *
 * @module
 */
export {
  compress,
  compressAsync,
  type CompressOptions,
  decompress,
  decompressAsync,
  type DecompressOptions,
  defaultLog2Block,
  FLAG_CHECKSUM,
  FLAG_LANES,
  FLAG_LEAN,
  FLAG_PAIRS,
  FLAG_SPLIT,
  inspect,
  LOG2_BLOCK,
  maxCompressedSize,
  type ModeCounts,
  type StreamInfo,
} from "./src/codec.ts";
export {
  bf16ToF32,
  decodeFloats,
  encodeFloats,
  f32ToBf16,
  f32ToFp16,
  f32ToFp8E4M3,
  f32ToFp8E5M2,
  type FloatFormat,
  fp16ToF32,
  fp8E4M3ToF32,
  fp8E5M2ToF32,
} from "./src/convert.ts";
export { type DType, dtypeId, dtypeOf, DTYPES, dtypeWidth, isDType } from "./src/dtype.ts";
export {
  BufferTooSmallError,
  ChecksumError,
  CorruptStreamError,
  CudaError,
  errorFor,
  InternalError,
  InvalidArgumentError,
  NcclError,
  NoDeviceError,
  OutOfMemoryError,
  Status,
  type StatusName,
  statusName,
  TimeoutError,
  TruncatedStreamError,
  UnsupportedError,
  UzipError,
} from "./src/errors.ts";
export {
  cudaDeviceCount,
  CudaEvent,
  DeviceBuffer,
  type DeviceInfo,
  deviceInfo,
  Stream,
} from "./src/device.ts";
export {
  GpuCodec,
  type GpuCodecOptions,
  type GpuCompressOptions,
  type GpuDecompressOptions,
} from "./src/gpu_codec.ts";
export { type LibraryFeatures, libraryFeatures, LibraryLoadError, libraryPath } from "./ffi/deno.ts";
export {
  type PlaneEntropy,
  planeEntropy,
  type PlaneEntropyOptions,
  type PlaneHistograms,
  planeHistograms,
} from "./src/entropy.ts";
export { type CommInitOptions, Communicator, type LaunchEnv, launchEnv, ncclVersion } from "./src/comm.ts";
export {
  calibrate,
  type CompressMode,
  defaultPolicy,
  p2p,
  type P2pOp,
  type P2pOptions,
  type P2pResult,
  recv,
  recvMany,
  send,
  sendMany,
  type Tensor,
} from "./src/p2p.ts";
export {
  type Decision,
  DEFAULT_RATIOS,
  type Direction,
  type LinkModel,
  Policy,
  type PolicyOptions,
} from "./src/policy.ts";
export {
  allGather,
  allGatherAsync,
  allReduce,
  allReduceAsync,
  allToAll,
  allToAllAsync,
  broadcast,
  broadcastAsync,
  calibrateCollectives,
  type CollectiveKind,
  type CollectiveModel,
  type CollectiveOptions,
  COLLECTIVES,
  type CommLike,
  type CompressMode as CollectiveCompressMode,
  type DevicePtr,
  reduce,
  REDUCE_OPS,
  reduceAsync,
  type ReduceOp,
  reduceScatter,
  reduceScatterAsync,
  setCollectiveModel,
  simulateCollective,
  type SimulationArgs,
  type SimulationResult,
} from "./src/collectives.ts";
export { launch, type LaunchOptions, type LaunchResult, type RankResult } from "./src/launch.ts";

import { cString, native } from "./ffi/deno.ts";

/** Versions of the loaded native library: the library's own and the stream format's. */
export function nativeVersion(): { library: string; format: number } {
  const lib = native();
  const v = lib.uzipVersion();
  return {
    library: `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`,
    format: lib.uzipFormatVersion(),
  };
}

/** The library's last error message on this thread ("" when none). */
export function lastNativeError(): string {
  return cString(native().uzipLastError());
}
