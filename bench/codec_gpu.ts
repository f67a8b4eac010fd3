// GPU codec measurement on one device: CUDA events around every timed call, median of N calls, with a
// device-to-device copy of the same size timed in the same run as the yardstick.
//
// Method (see /work/.library/device/METHOD.md):
// - Small tensors would be measured from L2, so inputs rotate among `slots` copies whose total footprint
//   is several times the L2; each phase starts on the slot least recently touched.
// - Host enqueue cost (JS + FFI, ~10-30 us a call) must not be timed: before each timed batch the stream
//   gets a "filler" of large copies, so every timed call is already queued when the GPU reaches it and
//   each event pair brackets device time only. The filler is grown when the host was slower than it.
// - Every configuration is checked: decompressed output (poisoned first) equals the input bit for bit,
//   the compressed size is the same at every SM count, and for small sizes the GPU stream is
//   byte-identical to the CPU codec's.

import { Buffer } from "node:buffer";
import { native } from "../ffi/deno.ts";
import { compress as cpuCompress, maxCompressedSize } from "../src/codec.ts";
import { CudaEvent, DeviceBuffer, type DeviceInfo, deviceInfo, Stream } from "../src/device.ts";
import { unwrap } from "../src/errors.ts";
import { GpuCodec, type GpuCompressOptions } from "../src/gpu_codec.ts";
import { codecDtype, type DataPattern, tile, widthOf } from "./codec_data.ts";

const MiB = 1 << 20;
/** Inputs smaller than this rotate among several slots (about 2x the H200's 50-60 MB L2 per array). */
export const ROTATE_BELOW = 128 * MiB;
const MAX_SLOTS = 1024;
/** The GPU stream is compared byte for byte with the CPU codec's up to this size. */
const CPU_IDENTITY_MAX = 16 * MiB;
/** Bytes per filler copy; $UZIP_BENCH_FILLER_MIB overrides (for test doubles of the device only). */
const FILLER_BYTES = Number(Deno.env.get("UZIP_BENCH_FILLER_MIB") ?? 256) * MiB;
const POISON = 0xa5;
/** The filler never grows past this many copies (~100 ms on an H200): a bound if the host stalls. */
const MAX_FILLER_COPIES = 512;

/** Slots for a tensor of `size` bytes: 1 when it is well past the L2, else enough to fill ROTATE_BELOW. */
export function slotsFor(size: number): number {
  if (size >= ROTATE_BELOW) return 1;
  return Math.min(MAX_SLOTS, Math.max(2, Math.ceil(ROTATE_BELOW / size)));
}

export interface GpuTimings {
  /** SM limit given to the codec (0: whole chip). The copy always runs on the whole chip. */
  sms: number;
  slots: number;
  compressedBytes: number;
  ratio: number;
  verified: { roundTrip: boolean; sameSizeAllSms: boolean; identicalToCpu: boolean | null };
  /** Milliseconds per call, one entry per timed call, in order. */
  copyMs: number[];
  compressMs: number[];
  decompressMs: number[];
  /** GPU milliseconds of the filler queued ahead of the timed calls, and host ms spent enqueueing them. */
  fillerMs: number;
  enqueueMs: number;
  /** Whether the filler outlasted the host's enqueueing (else launch gaps may be in the timings). */
  queuedAhead: boolean;
}

/** Buffers of one tensor size: `slots` inputs, compressed streams and outputs. */
export interface Prepared {
  pattern: DataPattern;
  size: number;
  count: number;
  inputs: DeviceBuffer[];
  streams: DeviceBuffer[];
  outputs: DeviceBuffer[];
  /** Compressed size from the first (whole-chip or first listed) configuration. */
  compressedBytes: number;
}

export class GpuCodecBench {
  readonly device: number;
  readonly info: DeviceInfo;
  readonly codec: GpuCodec;
  readonly stream: Stream;
  #fillerSrc: DeviceBuffer;
  #fillerDst: DeviceBuffer;
  #fillerCopies = 16;
  #events: CudaEvent[] = [];
  #host = new Uint8Array(0);
  /** The compression options of every call (the layout; block size and coding left to the library). */
  readonly opts: GpuCompressOptions;

  /** opts.split: the split layout instead of the default one. */
  constructor(device = 0, opts: { split?: boolean } = {}) {
    this.device = device;
    this.opts = { split: opts.split ?? false };
    this.info = deviceInfo(device);
    this.codec = GpuCodec.create(device);
    this.stream = Stream.create(device);
    this.#fillerSrc = DeviceBuffer.alloc(device, FILLER_BYTES);
    this.#fillerDst = DeviceBuffer.alloc(device, FILLER_BYTES);
    this.#fillerSrc.fill(1, this.stream);
  }

  #event(i: number): CudaEvent {
    while (this.#events.length <= i) this.#events.push(CudaEvent.create(this.device));
    return this.#events[i];
  }

  /** Writes `size` bytes of the pattern, repeated, into `buf`: one upload, then doubling D2D copies. */
  #fillTiled(buf: DeviceBuffer, pattern: Uint8Array, size: number): void {
    const first = Math.min(pattern.length, size);
    buf.upload(pattern.subarray(0, first), this.stream, 0);
    const lib = native();
    // [0, have) holds the pattern repeated and `have` is a multiple of the period, so [have, have + n)
    // is a copy of [0, n) for any n.
    for (let have = first; have < size;) {
      const n = Math.min(have, size - have);
      unwrap(lib.uzipCudaMemcpyAsync(buf.ptr + BigInt(have), buf.ptr, BigInt(n), this.stream.handle));
      have += n;
    }
  }

  /** Allocates and fills the slots of one tensor size; compresses every slot once. */
  prepare(pattern: DataPattern, size: number): Prepared {
    const width = widthOf(pattern.dtype);
    if (size % width !== 0) throw new RangeError(`size ${size} is not a whole number of ${pattern.dtype}`);
    const count = size / width;
    const dt = codecDtype(pattern.dtype);
    const bound = maxCompressedSize(count, dt, this.opts);
    const slots = slotsFor(size);
    const p: Prepared = { pattern, size, count, inputs: [], streams: [], outputs: [], compressedBytes: 0 };
    try {
      for (let s = 0; s < slots; s++) {
        p.inputs.push(DeviceBuffer.alloc(this.device, size));
        p.streams.push(DeviceBuffer.alloc(this.device, bound));
        p.outputs.push(DeviceBuffer.alloc(this.device, size));
      }
    } catch (e) {
      this.release(p);
      throw e;
    }
    try {
      this.#fillTiled(p.inputs[0], pattern.bytes, size);
      for (let s = 1; s < slots; s++) p.inputs[s].copyFrom(p.inputs[0], size, this.stream);
      this.codec.setMaxSms(0);
      for (let s = 0; s < slots; s++) {
        this.codec.compress(p.inputs[s], count, dt, p.streams[s], this.stream, this.opts);
      }
      this.stream.synchronize();
      p.compressedBytes = this.codec.compressedSize();
    } catch (e) {
      this.release(p);
      throw e;
    }
    return p;
  }

  release(p: Prepared): void {
    try {
      this.stream.synchronize();
    } finally {
      for (const b of [...p.inputs, ...p.streams, ...p.outputs]) b.free();
      p.inputs.length = p.streams.length = p.outputs.length = 0;
    }
  }

  /** Decompressed output of slot 0 equals the pattern repeated (downloaded in period-sized chunks). */
  #outputMatches(p: Prepared): boolean {
    const period = Math.min(p.pattern.bytes.length, p.size);
    if (this.#host.length < period) this.#host = new Uint8Array(period);
    for (let at = 0; at < p.size; at += period) {
      const n = Math.min(period, p.size - at);
      const got = p.outputs[0].download(this.#host.subarray(0, n), this.stream, at);
      if (Buffer.compare(got, p.pattern.bytes.subarray(0, n)) !== 0) return false;
    }
    return true;
  }

  /** Checks one configuration: fresh compress of slot 0 at the current SM limit, then a poisoned decode. */
  #verify(p: Prepared, checkCpu: boolean): GpuTimings["verified"] {
    const dt = codecDtype(p.pattern.dtype);
    this.codec.compress(p.inputs[0], p.count, dt, p.streams[0], this.stream, this.opts);
    this.stream.synchronize();
    const size = this.codec.compressedSize();
    let identicalToCpu: boolean | null = null;
    if (checkCpu && p.size <= CPU_IDENTITY_MAX) {
      const cpu = cpuCompress(tile(p.pattern.bytes, p.size), dt, this.opts);
      const gpu = p.streams[0].download(new Uint8Array(size), this.stream, 0);
      identicalToCpu = cpu.length === size && Buffer.compare(cpu, gpu) === 0;
    }
    p.outputs[0].fill(POISON, this.stream);
    this.codec.decompress(p.streams[0], size, p.outputs[0], this.stream, { dtype: dt });
    this.stream.synchronize();
    this.codec.lastStatus(); // throws the typed error when the kernel rejected the stream
    return {
      roundTrip: this.#outputMatches(p),
      sameSizeAllSms: size === p.compressedBytes,
      identicalToCpu,
    };
  }

  /** Measures copy, compress and decompress of one prepared size at an SM limit (0: whole chip). */
  measure(p: Prepared, sms: number, repeat: number, warmup: number, checkCpu: boolean): GpuTimings {
    const dt = codecDtype(p.pattern.dtype);
    const slots = p.inputs.length;
    this.codec.setMaxSms(sms);
    const verified = this.#verify(p, checkCpu);

    const copy = (s: number) => p.outputs[s].copyFrom(p.inputs[s], p.size, this.stream);
    const comp = (s: number) =>
      this.codec.compress(p.inputs[s], p.count, dt, p.streams[s], this.stream, this.opts);
    const decomp = (s: number) =>
      this.codec.decompress(p.streams[s], p.compressedBytes, p.outputs[s], this.stream, { dtype: dt });
    const ops = [copy, comp, decomp];

    for (let i = 0; i < warmup; i++) for (const op of ops) op(i % slots);
    this.stream.synchronize();

    this.#event(1 + 2 * ops.length * repeat); // create every event before anything is timed
    for (let attempt = 0;; attempt++) {
      const fStart = this.#event(0);
      const fEnd = this.#event(1);
      fStart.record(this.stream);
      for (let k = 0; k < this.#fillerCopies; k++) {
        this.#fillerDst.copyFrom(this.#fillerSrc, FILLER_BYTES, this.stream);
      }
      fEnd.record(this.stream);
      const t0 = performance.now();
      // Each phase starts at the slot the previous phase touched least recently.
      let e = 2;
      for (let o = 0; o < ops.length; o++) {
        for (let i = 0; i < repeat; i++) {
          const s = (o * repeat + i) % slots;
          this.#event(e++).record(this.stream);
          ops[o](s);
          this.#event(e++).record(this.stream);
        }
      }
      const enqueueMs = performance.now() - t0;
      this.stream.synchronize();
      this.codec.lastStatus();
      const fillerMs = CudaEvent.elapsedMs(fStart, fEnd);
      if (fillerMs < 1.25 * enqueueMs && attempt < 3) {
        // The GPU caught up with the host: timings may include launch gaps. Grow the filler, redo.
        const grown = Math.ceil(this.#fillerCopies * (2 * enqueueMs) / Math.max(fillerMs, 1e-3));
        this.#fillerCopies = Math.min(MAX_FILLER_COPIES, grown);
        continue;
      }
      const series = [[], [], []] as number[][];
      e = 2;
      for (let o = 0; o < ops.length; o++) {
        for (let i = 0; i < repeat; i++, e += 2) {
          series[o].push(CudaEvent.elapsedMs(this.#event(e), this.#event(e + 1)));
        }
      }
      // No compressedSize() check here: the context's mapped size word is also written by the decoder
      // (with the decoded size), and the last call queued was a decompress.
      return {
        sms,
        slots,
        compressedBytes: p.compressedBytes,
        ratio: p.compressedBytes / p.size,
        verified,
        copyMs: series[0],
        compressMs: series[1],
        decompressMs: series[2],
        fillerMs,
        enqueueMs,
        queuedAhead: fillerMs >= enqueueMs,
      };
    }
  }

  dispose(): void {
    this.stream.synchronize();
    for (const ev of this.#events) ev.destroy();
    this.#fillerSrc.free();
    this.#fillerDst.free();
    this.codec.dispose();
    this.stream.destroy();
  }
}
