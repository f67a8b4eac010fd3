/**
 * GPU resources: device queries, device buffers, streams and events. Every resource class frees its
 * native handle on `free()`/`destroy()` (safe to call twice), on `using` ({@linkcode Symbol.dispose}),
 * and, as a backstop for forgotten ones, when it is garbage-collected.
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import { InvalidArgumentError, unwrap } from "./errors.ts";
import { hostBytes } from "./views.ts";

const out64 = new BigUint64Array(1);
const out32 = new Int32Array(1);
const outF32 = new Float32Array(1);

/** The number of CUDA devices (0 when there is no driver or no GPU). */
export function cudaDeviceCount(): number {
  unwrap(native().uzipCudaDeviceCount(out32));
  return out32[0];
}

/** What one CUDA device is. */
export interface DeviceInfo {
  /** Device index. */
  index: number;
  /** Marketing name, e.g. "NVIDIA H200". */
  name: string;
  /** Streaming multiprocessors. */
  smCount: number;
  /** Global memory in bytes. */
  totalMem: number;
  /** L2 cache in bytes. */
  l2Bytes: number;
  /** Compute capability, e.g. [9, 0]. */
  computeCapability: [number, number];
  /** PCI bus id. */
  pciBusId: number;
  /** CUDA driver version (e.g. 13000). */
  driverVersion: number;
  /** CUDA runtime version the library was built with. */
  runtimeVersion: number;
}

function deviceIndex(device: number): number {
  if (!Number.isInteger(device) || device < 0 || device > 0x7fffffff) {
    throw new InvalidArgumentError(`device must be a non-negative integer, got ${device}`);
  }
  return device;
}

function byteCount(bytes: number, what: string): bigint {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${bytes}`);
  }
  return BigInt(bytes);
}

/** Describes CUDA device `index`. */
export function deviceInfo(index: number): DeviceInfo {
  const name = new Uint8Array(256);
  const info = new BigUint64Array(8);
  unwrap(native().uzipCudaDeviceInfo(deviceIndex(index), name, BigInt(name.length), info));
  const end = name.indexOf(0);
  const n = Array.from(info, Number);
  return {
    index,
    name: new TextDecoder().decode(name.subarray(0, end < 0 ? name.length : end)),
    smCount: n[0],
    totalMem: n[1],
    l2Bytes: n[2],
    computeCapability: [n[3], n[4]],
    pciBusId: n[5],
    driverVersion: n[6],
    runtimeVersion: n[7],
  };
}

// Backstops: a handle whose owner was collected without being freed is released here. Errors are
// ignored: there is nobody left to report them to.
const bufferRegistry = new FinalizationRegistry<bigint>((ptr) => void native().uzipCudaFree(ptr));
const streamRegistry = new FinalizationRegistry<bigint>((s) => void native().uzipStreamDestroy(s));
const eventRegistry = new FinalizationRegistry<bigint>((e) => void native().uzipEventDestroy(e));

// Resources with a nonblocking call in flight: held here so they cannot be collected (and destroyed by
// the backstop) while a worker thread still uses their handle.
const inFlight = new Set<object>();

/** A CUDA stream. `handle` 0n (see {@linkcode Stream.legacy}) is the legacy default stream. */
export class Stream {
  #handle: bigint;
  #owned: boolean;
  #pending = 0;
  #destroyRequested = false;
  /** The device this stream belongs to. */
  readonly device: number;

  private constructor(device: number, handle: bigint, owned: boolean) {
    this.device = device;
    this.#handle = handle;
    this.#owned = owned;
    if (owned) streamRegistry.register(this, handle, this);
  }

  /** Creates a stream on `device`. */
  static create(device: number): Stream {
    unwrap(native().uzipStreamCreate(deviceIndex(device), out64));
    return new Stream(device, out64[0], true);
  }

  /** The legacy default stream (handle 0n) of `device`; destroying it does nothing. */
  static legacy(device = 0): Stream {
    return new Stream(deviceIndex(device), 0n, false);
  }

  /** The native handle. Throws after destroy(). */
  get handle(): bigint {
    if (this.#destroyRequested) throw new InvalidArgumentError("stream was destroyed");
    return this.#handle;
  }

  /** Blocks until all work enqueued on the stream is done. */
  synchronize(): void {
    unwrap(native().uzipStreamSynchronize(this.handle));
  }

  /** Waits on a worker thread until all work enqueued on the stream is done. */
  async synchronizeAsync(): Promise<void> {
    const handle = this.handle;
    this.#pending++;
    inFlight.add(this);
    try {
      const status = await native().uzipStreamSynchronizeAsync(handle);
      unwrap(status);
    } finally {
      if (--this.#pending === 0) {
        inFlight.delete(this);
        if (this.#destroyRequested) this.#release();
      }
    }
  }

  /** Makes future work on this stream wait for `event`. */
  waitEvent(event: CudaEvent): void {
    unwrap(native().uzipStreamWaitEvent(this.handle, event.handle));
  }

  /** Destroys the stream (deferred until pending synchronizeAsync calls settle). Safe to call twice. */
  destroy(): void {
    if (this.#destroyRequested) return;
    this.#destroyRequested = true;
    if (this.#pending === 0) this.#release();
  }

  #release(): void {
    if (!this.#owned) return;
    this.#owned = false;
    streamRegistry.unregister(this);
    unwrap(native().uzipStreamDestroy(this.#handle));
  }

  /** Same as destroy(). */
  [Symbol.dispose](): void {
    this.destroy();
  }
}

function streamHandle(stream: Stream | undefined): bigint {
  return stream === undefined ? 0n : stream.handle;
}

/** A buffer in device memory. */
export class DeviceBuffer {
  #ptr: bigint;
  /** Size in bytes. */
  readonly bytes: number;
  /** The device the memory lives on. */
  readonly device: number;

  private constructor(device: number, ptr: bigint, bytes: number) {
    this.device = device;
    this.#ptr = ptr;
    this.bytes = bytes;
    bufferRegistry.register(this, ptr, this);
  }

  /** Allocates `bytes` bytes on `device` (contents undefined). */
  static alloc(device: number, bytes: number): DeviceBuffer {
    unwrap(native().uzipCudaMalloc(deviceIndex(device), byteCount(bytes, "bytes"), out64));
    return new DeviceBuffer(device, out64[0], bytes);
  }

  /** The device pointer. Throws after free(). */
  get ptr(): bigint {
    if (this.#ptr === 0n) throw new InvalidArgumentError("device buffer was freed");
    return this.#ptr;
  }

  /** Whether free() was called. */
  get freed(): boolean {
    return this.#ptr === 0n;
  }

  /**
   * Copies host bytes into the buffer at `offset`; returns when the copy is done. With a stream the copy
   * is ordered after the work already enqueued on it.
   */
  upload(view: ArrayBufferView, stream?: Stream, offset: number = 0): void {
    const src = hostBytes(view, "view", true);
    this.#check(offset, src.byteLength);
    if (src.byteLength === 0) return;
    unwrap(
      native().uzipCudaMemcpyFromHost(
        this.ptr + BigInt(offset),
        src as Uint8Array<ArrayBuffer>,
        BigInt(src.byteLength),
        streamHandle(stream),
      ),
    );
  }

  /**
   * Copies the buffer (or `into.byteLength` bytes of it from `offset`) to the host; returns when done.
   *
   * @returns `into` as a Uint8Array, or a fresh one of the whole buffer
   */
  download(into?: ArrayBufferView, stream?: Stream, offset: number = 0): Uint8Array {
    const dst = into === undefined ? new Uint8Array(this.bytes - offset) : hostBytes(into, "into", true);
    this.#check(offset, dst.byteLength);
    if (dst.byteLength === 0) return dst;
    unwrap(
      native().uzipCudaMemcpyToHost(
        dst as Uint8Array<ArrayBuffer>,
        this.ptr + BigInt(offset),
        BigInt(dst.byteLength),
        streamHandle(stream),
      ),
    );
    return dst;
  }

  /** Enqueues setting every byte to `byte` on `stream` (default: the legacy default stream). */
  fill(byte: number, stream?: Stream): void {
    if (!Number.isInteger(byte) || byte < 0 || byte > 255) {
      throw new InvalidArgumentError(`fill byte must be 0..255, got ${byte}`);
    }
    unwrap(native().uzipCudaMemsetAsync(this.ptr, byte, BigInt(this.bytes), streamHandle(stream)));
  }

  /** Enqueues a device-to-device copy of `bytes` bytes from `src` into this buffer. */
  copyFrom(src: DeviceBuffer, bytes: number = Math.min(src.bytes, this.bytes), stream?: Stream): void {
    this.#check(0, bytes);
    if (bytes > src.bytes) throw new InvalidArgumentError(`copy of ${bytes} bytes from ${src.bytes}`);
    unwrap(native().uzipCudaMemcpyAsync(this.ptr, src.ptr, BigInt(bytes), streamHandle(stream)));
  }

  #check(offset: number, length: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + length > this.bytes) {
      throw new InvalidArgumentError(
        `range [${offset}, ${offset + length}) is outside the ${this.bytes}-byte device buffer`,
      );
    }
  }

  /** Frees the memory. Safe to call twice. Work still enqueued on it must be finished first. */
  free(): void {
    if (this.#ptr === 0n) return;
    const ptr = this.#ptr;
    this.#ptr = 0n;
    bufferRegistry.unregister(this);
    unwrap(native().uzipCudaFree(ptr));
  }

  /** Same as free(). */
  [Symbol.dispose](): void {
    this.free();
  }
}

/** A CUDA event, for ordering streams and timing GPU work. */
export class CudaEvent {
  #handle: bigint;
  #pending = 0;
  #destroyRequested = false;
  /** The device the event belongs to. */
  readonly device: number;

  private constructor(device: number, handle: bigint) {
    this.device = device;
    this.#handle = handle;
    eventRegistry.register(this, handle, this);
  }

  /** Creates an event on `device` (with timing enabled). */
  static create(device: number): CudaEvent {
    unwrap(native().uzipEventCreate(deviceIndex(device), out64));
    return new CudaEvent(device, out64[0]);
  }

  /** The native handle. Throws after destroy(). */
  get handle(): bigint {
    if (this.#destroyRequested) throw new InvalidArgumentError("event was destroyed");
    return this.#handle;
  }

  /** Records the event at the current end of `stream` (default: the legacy default stream). */
  record(stream?: Stream): void {
    unwrap(native().uzipEventRecord(this.handle, streamHandle(stream)));
  }

  /** Blocks until the recorded work is done. */
  synchronize(): void {
    unwrap(native().uzipEventSynchronize(this.handle));
  }

  /** Waits on a worker thread until the recorded work is done. */
  async synchronizeAsync(): Promise<void> {
    const handle = this.handle;
    this.#pending++;
    inFlight.add(this);
    try {
      unwrap(await native().uzipEventSynchronizeAsync(handle));
    } finally {
      if (--this.#pending === 0) {
        inFlight.delete(this);
        if (this.#destroyRequested) this.#release();
      }
    }
  }

  /** Milliseconds between two recorded, completed events. */
  static elapsedMs(start: CudaEvent, end: CudaEvent): number {
    unwrap(native().uzipEventElapsedMs(start.handle, end.handle, outF32));
    return outF32[0];
  }

  /** Destroys the event (deferred until pending synchronizeAsync calls settle). Safe to call twice. */
  destroy(): void {
    if (this.#destroyRequested) return;
    this.#destroyRequested = true;
    if (this.#pending === 0) this.#release();
  }

  #release(): void {
    if (this.#handle === 0n) return;
    const h = this.#handle;
    this.#handle = 0n;
    eventRegistry.unregister(this);
    unwrap(native().uzipEventDestroy(h));
  }

  /** Same as destroy(). */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
