/**
 * The GPU codec: compression and decompression kernels enqueued on a CUDA stream, producing and reading
 * the same bytes as the CPU codec of `src/codec.ts`.
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import { type CompressOptions, flagsOf, log2Of, maxCompressedSize } from "./codec.ts";
import { type DType, dtypeId, dtypeWidth } from "./dtype.ts";
import type { DeviceBuffer, Stream } from "./device.ts";
import { BufferTooSmallError, errorFor, InvalidArgumentError, Status, unwrap } from "./errors.ts";

const out64 = new BigUint64Array(1);
const out32 = new Int32Array(1);

const registry = new FinalizationRegistry<bigint>((ctx) => void native().uzipGpuCodecDestroy(ctx));

/** Options of {@linkcode GpuCodec.create}. */
export interface GpuCodecOptions {
  /**
   * The most SMs the codec's kernels may occupy (0 or absent: the whole chip). Every call then leaves the
   * other SMs free of codec work, for kernels on other streams (communication) to run beside them.
   * (A context also holds the compress kernel's scratch once it has compressed: about 140 MB for
   * bf16/fp16 on an H200, freed by `dispose()`.)
   */
  maxSms?: number;
}

/** Options of {@linkcode GpuCodec.compress}: the CPU codec's options plus a device size word. */
export interface GpuCompressOptions extends CompressOptions {
  /** Device pointer of a u64 that receives the compressed size (for device-side consumers). */
  outSizeDev?: bigint;
}

/** Options of {@linkcode GpuCodec.decompress}. */
export interface GpuDecompressOptions {
  /** Device pointer of a u32 that receives the decode status (for device-side consumers). */
  statusDev?: bigint;
  /**
   * The stream's dtype, when the caller knows it. It only picks the decode kernel tuned for that dtype
   * (fp32 streams decode faster in their own: 64 MiB in 72 µs against 85 without the dtype on an H100);
   * a stream of another dtype still decodes exactly.
   */
  dtype?: DType;
  /**
   * The stream holds lane streams (compressed with `lanes: true`): they decode in their own kernel, and
   * the default one refuses them (UnsupportedError from lastStatus). Default false.
   */
  lanes?: boolean;
  /**
   * The stream is pair-coded (compressed with `pairs: true`) in the split layout: it decodes in its own
   * kernel, and the others refuse it (UnsupportedError / InvalidArgumentError from lastStatus). Default false.
   */
  pairs?: boolean;
  /**
   * The stream has lean sections (compressed with `lean: true`): it decodes in their own kernel, which refuses
   * any other stream (InvalidArgumentError from lastStatus). Without it the default kernels decode a lean
   * stream too, out of line (its blocks in a path of their own, so the default coding's path is unchanged),
   * which is slower where those kernels run many warps an SM: `true` is the fast way for large lean streams.
   * `"maybe"`: the stream may or may not have them (but is neither lane streams nor pair-coded): both kernels
   * are enqueued and the one the stream is not for leaves it at its header, at ~1 µs more than `true` for a
   * lean stream and 4–15 µs more than `false` for a small default one (1–16 MiB on an H200 and an H100);
   * since the default kernels take lean streams (session 42) it buys nothing over leaving this unset. Lean
   * sections are the default coding of split bf16, fp16 and fp32 tensors of at most 16 MiB (`CompressOptions.lean`),
   * which the default kernels decode (H100, bf16 1 MiB: 22.6-22.9 µs back to back, against 31.5-31.7 for the
   * coding before). Default false.
   */
  lean?: boolean | "maybe";
}

function smCount(maxSms: number | undefined): number {
  const v = maxSms ?? 0;
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) {
    throw new InvalidArgumentError(`maxSms must be a non-negative integer, got ${maxSms}`);
  }
  return v;
}

/**
 * A GPU codec context on one device: the scratch its kernels need and a host-mapped word that reports
 * the last compressed size and decode status.
 *
 * @example
 * ```ts ignore
 * const codec = GpuCodec.create(0);
 * codec.compress(src, count, "bf16", dst, stream);
 * stream.synchronize();
 * const bytes = codec.compressedSize();
 * ```
 */
export class GpuCodec {
  #ctx: bigint;
  /** The device of this context. */
  readonly device: number;

  private constructor(device: number, ctx: bigint) {
    this.device = device;
    this.#ctx = ctx;
    registry.register(this, ctx, this);
  }

  /** Creates a codec context on `device`. */
  static create(device: number, opts: GpuCodecOptions = {}): GpuCodec {
    if (!Number.isInteger(device) || device < 0) throw new InvalidArgumentError(`bad device ${device}`);
    unwrap(native().uzipGpuCodecCreate(device, smCount(opts.maxSms), out64));
    return new GpuCodec(device, out64[0]);
  }

  /** The native context handle. Throws after dispose(). */
  get handle(): bigint {
    if (this.#ctx === 0n) throw new InvalidArgumentError("GPU codec was disposed");
    return this.#ctx;
  }

  /** Changes the number of SMs later kernels may occupy (0: the whole chip). */
  setMaxSms(maxSms: number): void {
    unwrap(native().uzipGpuCodecSetMaxSms(this.handle, smCount(maxSms)));
  }

  /**
   * Enqueues compression of `count` elements of `dtype` at `src` into `dst` on `stream`. `dst` must hold
   * {@linkcode maxCompressedSize} bytes. Read the size with {@linkcode GpuCodec.compressedSize} once the
   * stream has passed this point.
   */
  compress(
    src: DeviceBuffer,
    count: number,
    dtype: DType,
    dst: DeviceBuffer,
    stream: Stream,
    opts: GpuCompressOptions = {},
  ): void {
    const id = dtypeId(dtype);
    if (!Number.isSafeInteger(count) || count < 0) throw new InvalidArgumentError(`bad count ${count}`);
    const width = dtypeWidth(dtype);
    if (count * width > src.bytes) {
      throw new InvalidArgumentError(`${count} ${dtype} elements exceed the ${src.bytes}-byte source`);
    }
    const bound = maxCompressedSize(count, dtype, opts);
    if (dst.bytes < bound) {
      throw new BufferTooSmallError(`destination holds ${dst.bytes} bytes, compression may need ${bound}`);
    }
    const log2 = log2Of(opts, count, dtype); // (maxCompressedSize above already refused a bad log2Block)
    const flags = flagsOf(opts);
    unwrap(
      native().uzipGpuCompress(
        this.handle,
        src.ptr,
        BigInt(count),
        id,
        flags,
        log2,
        dst.ptr,
        BigInt(dst.bytes),
        opts.outSizeDev ?? 0n,
        stream.handle,
      ),
    );
  }

  /** The size of the last compressed stream; valid once its stream has passed the compress call. */
  compressedSize(): number {
    unwrap(native().uzipGpuCodecLastSize(this.handle, out64));
    return Number(out64[0]);
  }

  /**
   * Enqueues decompression of the `srcBytes`-byte stream at `src` into `dst` on `stream`. The kernel
   * validates the stream; check the outcome with {@linkcode GpuCodec.lastStatus} after synchronizing.
   */
  decompress(
    src: DeviceBuffer,
    srcBytes: number,
    dst: DeviceBuffer,
    stream: Stream,
    opts: GpuDecompressOptions = {},
  ): void {
    if (!Number.isSafeInteger(srcBytes) || srcBytes < 0 || srcBytes > src.bytes) {
      throw new InvalidArgumentError(`srcBytes ${srcBytes} is outside the ${src.bytes}-byte source`);
    }
    if (opts.lean !== undefined && typeof opts.lean !== "boolean" && opts.lean !== "maybe") {
      throw new InvalidArgumentError(`lean must be a boolean or "maybe", got ${String(opts.lean)}`);
    }
    if ([opts.lanes, opts.pairs, opts.lean].filter(Boolean).length > 1) {
      throw new InvalidArgumentError("a stream is at most one of lane streams, pair-coded, lean sections");
    }
    const hint = opts.dtype === undefined ? -1 : dtypeId(opts.dtype);
    const args = [
      this.handle,
      src.ptr,
      BigInt(srcBytes),
      dst.ptr,
      BigInt(dst.bytes),
      opts.statusDev ?? 0n,
      stream.handle,
    ] as const;
    unwrap(
      opts.lanes
        ? native().uzipGpuDecompressLanes(...args, hint)
        : opts.pairs
        ? native().uzipGpuDecompressPairs(...args)
        : opts.lean === "maybe"
        ? native().uzipGpuDecompressEither(...args, hint)
        : opts.lean
        ? native().uzipGpuDecompressLean(...args)
        : native().uzipGpuDecompressAs(...args, hint),
    );
  }

  /**
   * The status the last decode kernel reported; valid once its stream has passed the decompress call.
   *
   * @returns `Status.OK` (0)
   * @throws the typed error (CorruptStreamError, ChecksumError...) when the kernel reported a failure
   */
  lastStatus(): number {
    unwrap(native().uzipGpuCodecLastStatus(this.handle, out32));
    const status = out32[0];
    if (status !== Status.OK) throw errorFor(status, `the GPU decoder reported status ${status}`);
    return status;
  }

  /** Frees the context. Safe to call twice. */
  dispose(): void {
    if (this.#ctx === 0n) return;
    const ctx = this.#ctx;
    this.#ctx = 0n;
    registry.unregister(this);
    unwrap(native().uzipGpuCodecDestroy(ctx));
  }

  /** Same as dispose(). */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
