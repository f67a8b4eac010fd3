/**
 * The CPU codec: compress, decompress and inspect uzip streams in host memory. This is the reference
 * implementation (the GPU codec produces the same bytes) and the backend when no GPU is present.
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import { type DType, dtypeId, dtypeOf, dtypeWidth } from "./dtype.ts";
import { BufferTooSmallError, checkInt, errorFor, InvalidArgumentError, unwrap } from "./errors.ts";
import { hostBytes } from "./views.ts";

/** Header flag: the stream carries a checksum of the original bytes. */
export const FLAG_CHECKSUM = 0x01;
/** Header flag: split layout, the raw remainder plane stored whole at offset 64. */
export const FLAG_SPLIT = 0x02;
/**
 * Header flag: lane streams, symbol planes coded as 32 independent rANS streams per block for GPU coders
 * (docs/FORMAT.md "Lane streams"); set with the split layout.
 */
export const FLAG_LANES = 0x04;
/**
 * Header flag: pair coding, bf16 and fp32 symbol planes coded two elements a rANS step (docs/FORMAT.md "Pair
 * coding"); not with lane streams.
 */
export const FLAG_PAIRS = 0x08;
/**
 * Header flag: lean sections (docs/FORMAT.md "Lean sections"): rANS tables in range form where smaller and,
 * in the split layout, lane states seeded with remainder bits; not with lane streams or pair coding.
 */
export const FLAG_LEAN = 0x10;
/**
 * Smallest and largest log2 of the block size (elements per block), and the default. Left unset, the block
 * size is `default` except for bf16 and fp32 tensors of at most `smallTensorBytes`, which get `small`
 * (a GPU codes such a tensor in about one block's latency; the smaller block halves it for ~0.5% of
 * ratio), and fp8 and bf16 tensors of `largeTensorElements` and more, which get `large` (half the tables,
 * faster GPU decoding); see {@linkcode defaultLog2Block}.
 */
export const LOG2_BLOCK = {
  min: 10,
  max: 16,
  default: 14,
  small: 13,
  smallTensorBytes: 16 * 1024 * 1024,
  large: 15,
  largeTensorElements: 2 ** 30,
} as const;

/**
 * The block size (log2 of elements) that {@linkcode compress} uses when `log2Block` is not given; the C
 * codec's rule (`uzip_default_log2_block` in cuda/uzip_format.h). Lane streams take at most 2^14 and keep
 * 2^14 where this says 15.
 */
export function defaultLog2Block(count: number | bigint, dtype: DType): number {
  const n = BigInt(count);
  const exponentSymbols = dtype === "bf16" || dtype === "fp32";
  if (exponentSymbols && n * BigInt(dtypeWidth(dtype)) <= BigInt(LOG2_BLOCK.smallTensorBytes)) {
    return LOG2_BLOCK.small;
  }
  const largeBlocks = dtype === "fp8e4m3" || dtype === "fp8e5m2" || dtype === "bf16";
  return largeBlocks && n >= BigInt(LOG2_BLOCK.largeTensorElements) ? LOG2_BLOCK.large : LOG2_BLOCK.default;
}

/** Options of {@linkcode compress} and {@linkcode maxCompressedSize}. */
export interface CompressOptions {
  /** Store a checksum of the original bytes, verified on decompression (default false). */
  checksum?: boolean;
  /** Split layout: store the remainder plane raw and whole up front, for split-send (default false). */
  split?: boolean;
  /**
   * Lane streams (docs/FORMAT.md "Lane streams"): each block's symbol plane as 32 independent rANS streams
   * with a table from a sample, for GPU coders; implies `split`, and blocks of at most 2^14 elements.
   * Experimental: bit-identical on CPU and GPU, but not yet faster than the default coding on an H200
   * (docs/GPU_CODEC_NOTES.md, session 14). Default false.
   */
  lanes?: boolean;
  /**
   * Pair coding (docs/FORMAT.md "Pair coding"): bf16 and fp32 only; each exponent a 4-bit code of its
   * block's 15 most frequent, two codes a rANS step (half the steps, the ratio within 0.002). Experimental:
   * the CPU codec writes and reads it in every layout, the GPU codec encodes it in the split layout with
   * blocks of at most 2^15 elements (bit-identical), not yet faster than the default coding, and does not
   * decode it yet (docs/GPU_CODEC_NOTES.md, session 31). Default false.
   */
  pairs?: boolean;
  /**
   * Lean sections (docs/FORMAT.md "Lean sections"): each rANS table as the range of its symbols where that
   * is smaller than the bitmap, and in the split layout each segment's lanes start from 16 or 24 bits of
   * its last elements' remainders instead of a fixed state, which the decoder gets back from the states it
   * ends on: ~60 bytes less a block, which lets small blocks keep the ratio (Gaussian bf16 at 2^12-element
   * blocks 0.681 -> 0.670). Not with `lanes` or `pairs`. The GPU codec writes the same bytes and decodes them
   * in every decoder (`GpuDecompressOptions.lean` picks their own kernel). Default: the library's choice, which
   * with neither this nor `log2Block` given is lean sections in 2^12-element blocks for split bf16 and fp32
   * tensors of at most 2^23 elements (the ratio of the default coding's 2^13 blocks, and half a small GPU
   * call's latency per block) and in 2^13-element blocks for split bf16, fp16 and fp32 ones of at most 2^24
   * elements (fp16: half the latency of 2^14 blocks for 0.5-0.6% more bytes; 24-32 MiB calls 1.1-1.6x faster
   * on a whole H100), none otherwise; `false`: never. The choice serves the whole chip: under an SM budget
   * (`GpuCodec.setMaxSms`) the smaller blocks make more rounds, and 16-32 MiB calls run 5-18% slower than in
   * the plain default blocks under 16-32 SMs (H100; 1-4 MiB calls mostly gain), which `lean: false` avoids.
   */
  lean?: boolean;
  /** log2 of the elements per block, 10..16 (default: {@linkcode defaultLog2Block}: 14, 13 or 15). */
  log2Block?: number;
  /**
   * Threads the CPU codec may code blocks on: 0 (default) the machine's hardware threads, at most
   * `$UZIP_CPU_THREADS` when set and one for every 4 blocks; 1 the calling thread only. The stream's bytes
   * are the same at any count. Several threads need room for the bound ({@linkcode maxCompressedSize}):
   * into a smaller `into`, compression runs on the calling thread.
   */
  threads?: number;
  /**
   * Write the stream into this buffer and return a view of it (no allocation, no copy). It must hold the
   * stream: {@linkcode maxCompressedSize} bytes always do; a smaller one may throw BufferTooSmallError.
   */
  into?: Uint8Array<ArrayBuffer>;
}

/** Block counts per plane mode. */
export interface ModeCounts {
  /** Blocks stored verbatim. */
  raw: number;
  /** Blocks whose plane is one repeated value. */
  const: number;
  /** Blocks rANS-coded. */
  ans: number;
}

/** What a stream holds, read from its header and directory (validated; nothing decoded). */
export interface StreamInfo {
  /** Format version. */
  version: number;
  /** Element type. */
  dtype: DType;
  /** Header flags (FLAG_CHECKSUM, FLAG_SPLIT, FLAG_LANES, FLAG_PAIRS, FLAG_LEAN). */
  flags: number;
  /** Whether a checksum is stored. */
  checksum: boolean;
  /** Whether the stream uses the split layout. */
  split: boolean;
  /** Whether the symbol planes are lane streams. */
  lanes: boolean;
  /** Whether the symbol planes are pair-coded. */
  pairs: boolean;
  /** Whether the stream has lean sections. */
  lean: boolean;
  /** log2 of the elements per block. */
  log2Block: number;
  /** Elements. */
  count: number;
  /** Bytes of the original data (count × width). */
  rawBytes: number;
  /** Bytes of the stream. */
  totalBytes: number;
  /**
   * totalBytes / rawBytes: the fraction of the bytes that travel (lower is better; 0.67 means a third
   * saved). The paper's and this project's convention. Infinity for an empty tensor.
   */
  ratio: number;
  /** Blocks. */
  nblocks: number;
  /** The stored checksum (0 without FLAG_CHECKSUM). */
  storedChecksum: number;
  /** Bytes of all symbol-plane sections (padded). */
  symbolBytes: number;
  /** Bytes of all remainder sections (padded), split plane and seed sections (lean sections) included. */
  remainderBytes: number;
  /** Blocks per symbol-plane mode. */
  symbolModes: ModeCounts;
  /** Blocks per remainder-plane mode (external and none not counted). */
  remainderModes: ModeCounts;
}

// Out-parameter scratch, reused: FFI calls here are synchronous, so no two calls share it at once.
const out64 = new BigUint64Array(1);
const infoWords = new BigUint64Array(17);
// Zero-length arrays may be passed to C as null pointers; an empty input is given this instead.
const ONE_BYTE = new Uint8Array(1);

function nonEmpty(u8: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return u8.byteLength === 0 ? ONE_BYTE : u8;
}

/** Header flags of compression options (also the GPU codec's). */
export function flagsOf(opts: CompressOptions): number {
  if (typeof opts !== "object" || opts === null) throw new InvalidArgumentError("options must be an object");
  return (opts.checksum ? FLAG_CHECKSUM : 0) | (opts.split || opts.lanes ? FLAG_SPLIT : 0) |
    (opts.lanes ? FLAG_LANES : 0) | (opts.pairs ? FLAG_PAIRS : 0) | (opts.lean ? FLAG_LEAN : 0);
}

/**
 * The block size to pass the C codec for `opts` (0: the library's default, which for split bf16 and fp32 tensors
 * of at most 2^23 elements is lean sections at 2^12, for those and fp16 up to 2^24 at 2^13,
 * `uzip_default_lean_log2`); `lean: false` with no block size passes the default block size itself, so that
 * the library keeps the default coding.
 */
export function log2Of(opts: CompressOptions, count: number | bigint, dtype: DType): number {
  const v = opts.log2Block;
  if (v === undefined) {
    const leanByDefault = opts.split && !opts.lanes && !opts.pairs; // where uzip_default_lean_log2 may say yes
    return opts.lean === false && leanByDefault ? defaultLog2Block(count, dtype) : 0;
  }
  if (!Number.isInteger(v) || v < LOG2_BLOCK.min || v > LOG2_BLOCK.max) {
    throw new InvalidArgumentError(`log2Block must be an integer in ${LOG2_BLOCK.min}..${LOG2_BLOCK.max}`);
  }
  return v;
}

function countOf(count: number | bigint): bigint {
  if (typeof count === "bigint") {
    if (count < 0n) throw new InvalidArgumentError("count must be non-negative");
    return count;
  }
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new InvalidArgumentError(
      `count must be a non-negative safe integer (or a bigint), got ${count}${
        Number.isInteger(count) && count > 0 ? " (past Number.MAX_SAFE_INTEGER)" : ""
      }`,
    );
  }
  return BigInt(count);
}

/**
 * The largest stream {@linkcode compress} can produce for `count` elements of `dtype`.
 *
 * @param count number of elements
 * @param dtype element type
 * @param opts the options compression will use
 * @returns a byte count
 */
export function maxCompressedSize(count: number | bigint, dtype: DType, opts: CompressOptions = {}): number {
  const id = dtypeId(dtype);
  const n = countOf(count);
  unwrap(native().uzipMaxCompressedSize(id, n, flagsOf(opts), log2Of(opts, n, dtype), out64));
  return Number(out64[0]);
}

/**
 * Compresses `data`, read as elements of `dtype`, into a new uzip stream.
 *
 * @example
 * ```ts
 * import { compress, decompress } from "@uccl/zip";
 * const weights = new Uint16Array(4096).map((_, i) => 0x3f80 + (i % 7)); // bf16 bits
 * const stream = compress(weights, "bf16", { checksum: true });
 * const back = new Uint16Array(decompress(stream).buffer);
 * ```
 *
 * @param data the elements; its byte length must be a multiple of the dtype's width
 * @param dtype element type
 * @param opts checksum, split layout, block size
 * @returns the stream: a fresh Uint8Array of exactly its size, or a view of `opts.into`
 * @throws {InvalidArgumentError} for a bad dtype, length or option
 */
export function compress(data: ArrayBufferView, dtype: DType, opts: CompressOptions = {}): Uint8Array {
  const { src, count, flags, log2, threads, id, capacity } = compressArgs(data, dtype, opts);
  const dst = opts.into ?? stagingFor(Number(capacity));
  unwrap(
    native().uzipCompressCpuMt(
      nonEmpty(src),
      count,
      id,
      flags,
      log2,
      nonEmpty(dst),
      BigInt(dst.length),
      out64,
      threads,
    ),
  );
  const n = Number(out64[0]);
  return opts.into ? opts.into.subarray(0, n) : dst.slice(0, n);
}

// compress's arguments checked and converted; capacity: the stream's bound (maxCompressedSize).
function compressArgs(data: ArrayBufferView, dtype: DType, opts: CompressOptions) {
  const width = dtypeWidth(dtype);
  const src = hostBytes(data, "data");
  if (src.byteLength % width !== 0) {
    throw new InvalidArgumentError(
      `data is ${src.byteLength} bytes, not a multiple of the ${dtype} element size ${width}`,
    );
  }
  const count = BigInt(src.byteLength / width);
  const flags = flagsOf(opts);
  const log2 = log2Of(opts, count, dtype);
  const threads = threadsOf(opts.threads);
  const id = dtypeId(dtype);
  if (opts.into !== undefined) {
    if (!(opts.into instanceof Uint8Array)) throw new InvalidArgumentError("into must be a Uint8Array");
    hostBytes(opts.into, "into"); // shared or detached memory: the same typed errors as data's
  }
  unwrap(native().uzipMaxCompressedSize(id, count, flags, log2, out64));
  return { src, count, flags, log2, threads, id, capacity: out64[0] };
}

// A worker thread's failure: its status and the message the library copied for it.
function throwIfFailed(status: number, msg: Uint8Array): void {
  if (status === 0) return;
  const end = msg.indexOf(0);
  throw errorFor(
    status,
    new TextDecoder().decode(msg.subarray(0, end < 0 ? msg.length : end)) || `status ${status}`,
  );
}

/**
 * {@linkcode compress} on a worker thread: the calling thread stays free while the blocks are coded (on
 * `opts.threads` threads, as compress does). `data` (and `opts.into`) must not change size, be transferred
 * or be written until the promise settles; this function keeps them referenced until then.
 *
 * @param data the elements; its byte length must be a multiple of the dtype's width
 * @param dtype element type
 * @param opts as compress's
 * @returns the stream: a fresh Uint8Array of exactly its size, or a view of `opts.into`
 * @throws {InvalidArgumentError} for a bad dtype, length or option (before any work starts)
 */
export async function compressAsync(
  data: ArrayBufferView,
  dtype: DType,
  opts: CompressOptions = {},
): Promise<Uint8Array> {
  const { src, count, flags, log2, threads, id, capacity } = compressArgs(data, dtype, opts);
  const dst = opts.into ?? new Uint8Array(Number(capacity));
  const out = new BigUint64Array(1);
  const msg = new Uint8Array(512);
  const status = await native().uzipCompressCpuMsg(
    nonEmpty(src),
    count,
    id,
    flags,
    log2,
    nonEmpty(dst),
    BigInt(dst.length),
    out,
    threads,
    msg,
    BigInt(msg.length),
  );
  throwIfFailed(status, msg);
  return opts.into ? opts.into.subarray(0, Number(out[0])) : dst.slice(0, Number(out[0]));
}

// compress() codes into a staging buffer that is kept between calls (up to 256 MiB) and returns an
// exact-size copy: a fresh worst-case buffer per call cost more in first-touch page faults than the
// coding itself (8 MB of bf16 weights: 52 ms with a fresh buffer, 15 ms into a warm one, measured here).
const STAGING_KEEP_MAX = 256 << 20;
let staging: Uint8Array<ArrayBuffer> | null = null;
function stagingFor(bytes: number): Uint8Array<ArrayBuffer> {
  if (staging && staging.length >= bytes) return staging;
  const fresh = new Uint8Array(bytes);
  if (bytes <= STAGING_KEEP_MAX) staging = fresh;
  return fresh;
}

/**
 * Reads what a stream holds from its header and directory. Validates them (throwing the typed error
 * for a truncated, corrupt or unsupported stream) without decoding any block.
 *
 * @param stream a uzip stream (extra bytes after it are allowed)
 * @returns the stream's description
 */
export function inspect(stream: Uint8Array): StreamInfo {
  const src = hostBytes(stream, "stream");
  unwrap(native().uzipInspect(nonEmpty(src), BigInt(src.byteLength), infoWords));
  const w = Array.from(infoWords, Number);
  const [version, dtype, flags, log2Block, count, rawBytes, totalBytes, nblocks, checksum] = w;
  return {
    version,
    dtype: dtypeOf(dtype),
    flags,
    checksum: (flags & FLAG_CHECKSUM) !== 0,
    split: (flags & FLAG_SPLIT) !== 0,
    lanes: (flags & FLAG_LANES) !== 0,
    pairs: (flags & FLAG_PAIRS) !== 0,
    lean: (flags & FLAG_LEAN) !== 0,
    log2Block,
    count,
    rawBytes,
    totalBytes,
    ratio: rawBytes === 0 ? Infinity : totalBytes / rawBytes,
    nblocks,
    storedChecksum: checksum,
    symbolBytes: w[9],
    remainderBytes: w[10],
    symbolModes: { raw: w[11], const: w[12], ans: w[13] },
    remainderModes: { raw: w[14], const: w[15], ans: w[16] },
  };
}

/** Options of {@linkcode decompress}. */
export interface DecompressOptions {
  /**
   * Threads the CPU codec may decode blocks on, as {@linkcode CompressOptions.threads}: 0 (default) the
   * machine's hardware threads (at most `$UZIP_CPU_THREADS`, one for every 4 blocks), 1 the calling thread.
   * The result and, for a damaged stream, the error are the same at any count.
   */
  threads?: number;
}

// The threads option: an integer in [0, 1024], 0 when not given.
function threadsOf(threads: number | undefined): number {
  return threads === undefined ? 0 : checkInt(threads, "threads", 0, 1024);
}

/**
 * Decompresses a whole uzip stream.
 *
 * @param stream the stream
 * @param into optional destination; must hold at least the stream's raw bytes
 * @param opts the threads to decode on
 * @returns the original bytes: a view of `into` when given, else a fresh Uint8Array
 * @throws {CorruptStreamError | TruncatedStreamError | ChecksumError | BufferTooSmallError} on bad input
 */
export function decompress(
  stream: Uint8Array,
  into?: ArrayBufferView,
  opts: DecompressOptions = {},
): Uint8Array {
  const { src, dst, threads } = decompressArgs(stream, into, opts);
  unwrap(
    native().uzipDecompressCpuMt(
      src,
      BigInt(src.byteLength),
      nonEmpty(dst),
      BigInt(dst.byteLength),
      out64,
      threads,
    ),
  );
  return dst.subarray(0, Number(out64[0]));
}

// decompress's arguments checked (the stream's header included) and its destination.
function decompressArgs(stream: Uint8Array, into: ArrayBufferView | undefined, opts: DecompressOptions) {
  const threads = threadsOf(opts.threads);
  const src = hostBytes(stream, "stream");
  const info = inspect(src);
  const dst = into === undefined ? new Uint8Array(info.rawBytes) : hostBytes(into, "into");
  if (dst.byteLength < info.rawBytes) {
    throw new BufferTooSmallError(
      `destination holds ${dst.byteLength} bytes, the stream decodes to ${info.rawBytes}`,
    );
  }
  return { src, dst, threads };
}

/**
 * {@linkcode decompress} on a worker thread: the calling thread stays free while the blocks are decoded.
 * The stream is validated as by decompress (its header and directory before the promise is made, the blocks
 * on the worker). `stream` and `into` must not change size, be transferred or be written until the promise
 * settles; this function keeps them referenced until then.
 *
 * @param stream the stream
 * @param into optional destination; must hold at least the stream's raw bytes
 * @param opts the threads to decode on
 * @returns the original bytes: a view of `into` when given, else a fresh Uint8Array
 * @throws {CorruptStreamError | TruncatedStreamError | ChecksumError | BufferTooSmallError} on bad input
 */
export async function decompressAsync(
  stream: Uint8Array,
  into?: ArrayBufferView,
  opts: DecompressOptions = {},
): Promise<Uint8Array> {
  const { src, dst, threads } = decompressArgs(stream, into, opts);
  const out = new BigUint64Array(1);
  const msg = new Uint8Array(512);
  const status = await native().uzipDecompressCpuMsg(
    src,
    BigInt(src.byteLength),
    nonEmpty(dst),
    BigInt(dst.byteLength),
    out,
    threads,
    msg,
    BigInt(msg.length),
  );
  throwIfFailed(status, msg);
  return dst.subarray(0, Number(out[0]));
}
