// CPU codec measurement: one thread (or `threads`), performance.now() around batches of calls, median of
// the batches.
//
// The timed region is the C codec alone (uzipCompressCpuMt / uzipDecompressCpuMt through the FFI) on
// buffers allocated before timing, so JS allocation and zero-filling are not counted. The round trip
// is checked once through the public API (src/codec.ts) before timing.

import { Buffer } from "node:buffer";
import { native } from "../ffi/deno.ts";
import { compress, decompress, flagsOf, log2Of, maxCompressedSize } from "../src/codec.ts";
import { dtypeId } from "../src/dtype.ts";
import { unwrap } from "../src/errors.ts";
import { type BenchDtype, codecDtype, widthOf } from "./codec_data.ts";

export interface CpuTimings {
  compressedBytes: number;
  ratio: number;
  /** Round trip checked bit for bit through src/codec.ts. */
  verified: boolean;
  /** Calls per timed sample (small inputs are batched so a sample lasts >= minSampleMs). */
  callsPerSample: number;
  /** Milliseconds per call, one entry per sample. */
  compressMs: number[];
  decompressMs: number[];
  /** The yardstick: a plain host copy (Uint8Array.set, a memcpy) of the same size. */
  copyMs: number[];
}

export interface CpuOptions {
  repeat: number;
  warmup: number;
  /** Shortest sample: small inputs are batched until a sample lasts this long (default 20 ms). */
  minSampleMs?: number;
  /** Threads of the codec (default 1: the reference walk on this thread; 0: the library's choice). */
  threads?: number;
  /** The split layout (CompressOptions.split; block size and coding the library's default for it). */
  split?: boolean;
}

/** Measures compression and decompression of `input` (whole elements of `dtype`) on `opts.threads` threads. */
export function measureCpu(input: Uint8Array<ArrayBuffer>, dtype: BenchDtype, opts: CpuOptions): CpuTimings {
  const dt = codecDtype(dtype);
  const id = dtypeId(dt);
  const count = BigInt(input.byteLength / widthOf(dtype));
  if (input.byteLength % widthOf(dtype) !== 0) throw new RangeError("input is not whole elements");

  // Correctness first, through the public API.
  // The same options reach the FFI call below, as flags and block size the way compress() passes them.
  const copts = { split: opts.split ?? false };
  const stream = compress(input, dt, copts);
  const back = decompress(stream);
  const verified = Buffer.compare(back, input) === 0;
  if (!verified) throw new Error(`CPU round trip of ${dtype} (${input.byteLength} bytes) is not exact`);

  const lib = native();
  const capacity = BigInt(maxCompressedSize(count, dt, copts));
  const dst = new Uint8Array(Number(capacity));
  const out = new Uint8Array(input.byteLength);
  const outBytes = new BigUint64Array(1);
  const streamBytes = BigInt(stream.byteLength);
  const threads = opts.threads ?? 1;
  const doCompress = () =>
    unwrap(
      lib.uzipCompressCpuMt(
        input,
        count,
        id,
        flagsOf(copts),
        log2Of(copts, count, dt),
        dst,
        capacity,
        outBytes,
        threads,
      ),
    );
  const doDecompress = () =>
    unwrap(lib.uzipDecompressCpuMt(dst, streamBytes, out, BigInt(out.byteLength), outBytes, threads));

  // Warm-up also sizes the batches.
  let t0 = performance.now();
  doCompress();
  const estimate = Math.max(performance.now() - t0, 1e-3);
  if (Number(outBytes[0]) !== stream.byteLength) throw new Error("FFI compress size differs from compress()");
  for (let i = 1; i < opts.warmup; i++) doCompress();
  for (let i = 0; i < opts.warmup; i++) doDecompress();
  if (Buffer.compare(out, input) !== 0) throw new Error("FFI decompress output differs from the input");

  const calls = Math.max(1, Math.ceil((opts.minSampleMs ?? 20) / estimate));
  const sample = (fn: () => void): number => {
    t0 = performance.now();
    for (let k = 0; k < calls; k++) fn();
    return (performance.now() - t0) / calls;
  };
  const compressMs: number[] = [];
  const decompressMs: number[] = [];
  for (let i = 0; i < opts.repeat; i++) compressMs.push(sample(doCompress));
  for (let i = 0; i < opts.repeat; i++) decompressMs.push(sample(doDecompress));
  // The copy is much faster than the codec: batch it on its own estimate.
  const copyOut = new Uint8Array(input.byteLength);
  const doCopy = () => copyOut.set(input);
  doCopy();
  t0 = performance.now();
  doCopy();
  const copyCalls = Math.max(1, Math.ceil((opts.minSampleMs ?? 20) / Math.max(performance.now() - t0, 1e-3)));
  const copyMs: number[] = [];
  for (let i = 0; i < opts.repeat; i++) {
    t0 = performance.now();
    for (let k = 0; k < copyCalls; k++) doCopy();
    copyMs.push((performance.now() - t0) / copyCalls);
  }
  return {
    compressedBytes: stream.byteLength,
    ratio: stream.byteLength / input.byteLength,
    verified,
    callsPerSample: calls,
    compressMs,
    decompressMs,
    copyMs,
  };
}
