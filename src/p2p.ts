/**
 * Point-to-point transfers of device tensors over a {@linkcode Communicator}, compressed or plain.
 *
 * A compressed transfer is chunked and pipelined in C (`nccl/p2p.cc`): chunk i+1 is compressed while
 * chunk i moves and chunk i-1 is decoded; each chunk's raw remainder plane leaves with its header, its
 * coded exponent plane two steps later. Delivery is bit-identical. Everything is stream-ordered on the
 * caller's stream: work enqueued before the call happens first, and once the returned promise resolves,
 * work enqueued on the stream sees the received data (the host does not wait for the data itself).
 *
 * Both sides must post mirrored calls (same tensors to a peer, same order, same dtype, same `compress`
 * option); `"auto"` decides from numbers both sides share (see `src/policy.ts`).
 *
 * ```ts
 * await send(comm, buf, "bf16", 1, { compress: "auto", stream });   // rank 0
 * await recv(comm, buf, "bf16", 0, { compress: "auto", stream });   // rank 1
 * ```
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import { type Communicator, unwrapAsync } from "./comm.ts";
import { CudaEvent, DeviceBuffer, Stream } from "./device.ts";
import { type DType, dtypeId, dtypeWidth } from "./dtype.ts";
import { InvalidArgumentError, unwrap } from "./errors.ts";
import { chunkCount, type LinkModel, Policy } from "./policy.ts";

/** Whether to compress: always, never (plain NCCL), or where the policy predicts a gain. */
export type CompressMode = "auto" | "always" | "never";

/** Options of a transfer. */
export interface P2pOptions {
  /** Default "auto". */
  compress?: CompressMode;
  /** The stream the transfer is ordered on (default: the legacy default stream). */
  stream?: Stream;
  /** Limit of each wait on the peer, ms (default: the communicator's). */
  timeoutMs?: number;
  /** The auto policy (default: one shared policy per communicator). */
  policy?: Policy;
  /**
   * Run a compressed batch's pipeline on the calling thread (a synchronous FFI call: the event loop is
   * blocked until the last step is posted) instead of on a worker thread. Default false.
   */
  blocking?: boolean;
}

/** One tensor of a batch. */
export interface Tensor {
  /** The device memory holding (send) or receiving (recv) the elements. */
  buffer: DeviceBuffer;
  /** Element type; both sides must agree. */
  dtype: DType;
  /** Elements (default: the rest of the buffer from `offset`). */
  count?: number;
  /** Byte offset of the first element in the buffer, a multiple of the dtype's width (default 0). */
  offset?: number;
}

/** One operation of a general batch. */
export interface P2pOp extends Tensor {
  /** Direction of this operation. */
  kind: "send" | "recv";
  /**
   * The other rank, or this rank itself: NCCL's send/receive to self, which a batch must pair up (the k-th
   * send to self with the k-th receive from self, same count and dtype). `"auto"` never compresses those (a
   * copy on one device is faster than any codec); `"always"` still does, which runs the whole compressed
   * pipeline on one GPU.
   */
  peer: number;
}

/** What a batch did. */
export interface P2pResult {
  /** Per operation, whether it went compressed. */
  compressed: boolean[];
}

const policies = new WeakMap<Communicator, Policy>();

/** The policy a communicator uses when none is given. */
export function defaultPolicy(comm: Communicator): Policy {
  let p = policies.get(comm);
  if (p === undefined) policies.set(comm, p = new Policy());
  return p;
}

function elementCount(t: Tensor, offset: number = tensorOffset(t)): number {
  const width = dtypeWidth(t.dtype);
  const count = t.count ?? Math.floor((t.buffer.bytes - offset) / width);
  if (!Number.isSafeInteger(count) || count < 0 || offset + count * width > t.buffer.bytes) {
    throw new InvalidArgumentError(
      `${t.count} ${t.dtype} elements at offset ${offset} do not fit the ${t.buffer.bytes}-byte buffer`,
    );
  }
  return count;
}

function tensorOffset(t: Tensor): number {
  const offset = t.offset ?? 0;
  if (
    !Number.isSafeInteger(offset) || offset < 0 || offset > t.buffer.bytes || offset % dtypeWidth(t.dtype)
  ) {
    throw new InvalidArgumentError(
      `offset ${offset} is not a multiple of ${dtypeWidth(t.dtype)} within the ${t.buffer.bytes}-byte buffer`,
    );
  }
  return offset;
}

/** Runs a general batch of sends and receives (mirrored by the peers' batches). */
export async function p2p(comm: Communicator, ops: P2pOp[], opts: P2pOptions = {}): Promise<P2pResult> {
  const mode = opts.compress ?? "auto";
  if (mode !== "auto" && mode !== "always" && mode !== "never") {
    throw new InvalidArgumentError(`compress must be "auto", "always" or "never", got ${mode}`);
  }
  const policy = opts.policy ?? defaultPolicy(comm);
  const stream = opts.stream?.handle ?? 0n;
  const timeoutMs = opts.timeoutMs ?? comm.timeoutMs;
  if (mode === "auto") {
    for (const op of ops) {
      if (
        op.peer !== comm.rank && policy.link(op.peer) === undefined &&
        elementCount(op) * dtypeWidth(op.dtype) >= policy.minBytes
      ) {
        await calibrate(comm, op.peer, { policy, stream: opts.stream });
      }
    }
  }
  const record = new Uint8Array(32 * ops.length);
  const view = new DataView(record.buffer);
  const compressed: boolean[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== "send" && op.kind !== "recv") {
      throw new InvalidArgumentError(`op ${i}: bad kind ${op.kind}`);
    }
    const offset = tensorOffset(op);
    const count = elementCount(op, offset);
    const bytes = count * dtypeWidth(op.dtype);
    const c = mode === "always" ||
      (mode === "auto" && bytes >= policy.minBytes && op.dtype !== "bytes" && count > 0 &&
        op.peer !== comm.rank &&
        policy.shouldCompress(op.peer, op.kind, bytes, op.dtype));
    compressed.push(c && count > 0 && op.dtype !== "bytes");
    view.setBigUint64(32 * i, op.buffer.ptr + BigInt(offset), true);
    view.setBigUint64(32 * i + 8, BigInt(count), true);
    view.setInt32(32 * i + 16, dtypeId(op.dtype), true);
    view.setInt32(32 * i + 20, op.peer, true);
    view.setInt32(32 * i + 24, op.kind === "send" ? 1 : 0, true);
    view.setInt32(32 * i + 28, compressed[i] ? 1 : 0, true);
  });
  const lib = native();
  if (compressed.some((c) => c) && !opts.blocking) {
    unwrapAsync(await lib.uzipP2pRunAsync(comm.handle, record, ops.length, stream, timeoutMs), comm.handle);
  } else {
    unwrap(lib.uzipP2pRun(comm.handle, record, ops.length, stream, timeoutMs));
  }
  if (compressed.some((c) => c)) observeWire(comm, ops, compressed, policy);
  return { compressed };
}

// Feeds the policy what each compressed op of the batch just run put on the wire (the engine's count of
// coded bytes, the same on both sides), so that "auto" learns the pair's compressibility. Best effort: a
// count that cannot be read teaches nothing.
function observeWire(comm: Communicator, ops: P2pOp[], compressed: boolean[], policy: Policy): void {
  const wire = new BigUint64Array(ops.length), n = new Uint32Array(1);
  if (native().uzipP2pLastWireBytes(comm.handle, wire, ops.length, n) !== 0 || n[0] !== ops.length) return;
  ops.forEach((op, i) => {
    if (!compressed[i]) return;
    const raw = elementCount(op) * dtypeWidth(op.dtype);
    policy.observe(op.peer, op.kind, op.dtype, raw, Number(wire[i]));
  });
}

/** Sends `buffer` (count elements of dtype) to `peer`. */
export function send(
  comm: Communicator,
  buffer: DeviceBuffer,
  dtype: DType,
  peer: number,
  opts: P2pOptions & { count?: number } = {},
): Promise<P2pResult> {
  return p2p(comm, [{ kind: "send", buffer, dtype, peer, count: opts.count }], opts);
}

/** Receives into `buffer` (count elements of dtype) from `peer`. */
export function recv(
  comm: Communicator,
  buffer: DeviceBuffer,
  dtype: DType,
  peer: number,
  opts: P2pOptions & { count?: number } = {},
): Promise<P2pResult> {
  return p2p(comm, [{ kind: "recv", buffer, dtype, peer, count: opts.count }], opts);
}

/** Sends many tensors to `peer` in one pipelined batch (the peer calls recvMany with the same list). */
export function sendMany(
  comm: Communicator,
  tensors: Tensor[],
  peer: number,
  opts: P2pOptions = {},
): Promise<P2pResult> {
  return p2p(comm, tensors.map((t) => ({ ...t, kind: "send" as const, peer })), opts);
}

/** Receives many tensors from `peer` in one pipelined batch. */
export function recvMany(
  comm: Communicator,
  tensors: Tensor[],
  peer: number,
  opts: P2pOptions = {},
): Promise<P2pResult> {
  return p2p(comm, tensors.map((t) => ({ ...t, kind: "recv" as const, peer })), opts);
}

/**
 * Measures the link model of the pair (this rank, peer; another rank, else InvalidArgumentError) and stores
 * it in the policy. Both ranks call it at the same point (p2p() does, on the first "auto" transfer to a peer;
 * the result is cached in the policy for the communicator's lifetime): the lower rank sends 5 plain 64 MiB
 * messages (after one warm-up) and the higher one times each; each side times its GPU codec on gaussian bf16;
 * then 5 compressed 64 MiB transfers of that data are timed one by one by the receiver, and what the median
 * took beyond the pipeline model becomes the measured step cost. The numbers are exchanged and both keep the
 * same model (the receiver's link and step times, the slower codec). Medians of single transfers: the mean of
 * 3 in one window (until 2026-11-30) put the step cost anywhere from 35 to 69 us on the same machine, and at
 * 69 us "auto" sent 64 MiB plain though compressed measured 1.28x faster
 * (bench/results/h200x2-2026-11-30T2058-session5/3-p2p-blocks).
 */
export async function calibrate(
  comm: Communicator,
  peer: number,
  opts: { policy?: Policy; stream?: Stream; bytes?: number } = {},
): Promise<LinkModel> {
  if (peer === comm.rank) {
    throw new InvalidArgumentError(
      `calibrate: peer ${peer} is this rank; transfers to self have no link to measure`,
    );
  }
  const policy = opts.policy ?? defaultPolicy(comm);
  const bytes = opts.bytes ?? 64 << 20; // a size where the decision matters: 2 chunks of 32 MiB
  const own = opts.stream === undefined;
  const stream = opts.stream ?? Stream.create(comm.device);
  const buf = DeviceBuffer.alloc(comm.device, bytes);
  const msg = DeviceBuffer.alloc(comm.device, 48);
  const theirsBuf = DeviceBuffer.alloc(comm.device, 48);
  const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
  try {
    buf.fill(0x3c, stream);
    const sender = comm.rank < peer;
    const kind = sender ? "send" : "recv";
    const timed = async (compress: CompressMode, reps: number): Promise<number> => {
      const o = { compress, stream, policy };
      await p2p(comm, [{ kind, buffer: buf, dtype: "bf16", peer }], o); // warm-up
      const seconds: number[] = [];
      for (let i = 0; i < reps; i++) {
        t0.record(stream);
        await p2p(comm, [{ kind, buffer: buf, dtype: "bf16", peer }], o);
        t1.record(stream);
        await t1.synchronizeAsync();
        seconds.push(CudaEvent.elapsedMs(t0, t1) / 1e3);
      }
      await comm.synchronize(stream);
      return seconds.sort((a, b) => a - b)[reps >> 1];
    };
    const linkBps = bytes / await timed("never", 5);
    const host = gaussianBf16(bytes >> 1);
    const { compressBps, decompressBps, ratio } = await measureCodec(comm.device, stream, host);
    buf.upload(host, stream);
    const zipSeconds = await timed("always", 5);
    // Exchange [link, compress, decompress, zip time, ratio] both ways in one batch.
    const mine = new Float64Array([linkBps, compressBps, decompressBps, zipSeconds, ratio]);
    msg.upload(new Uint8Array(mine.buffer), stream);
    await p2p(comm, [
      { kind: "send", buffer: msg, dtype: "bytes", peer, count: 40 },
      { kind: "recv", buffer: theirsBuf, dtype: "bytes", peer, count: 40 },
    ], { compress: "never", stream });
    const theirs = new Float64Array(theirsBuf.download(undefined, stream).slice(0, 40).buffer);
    const recvSide = sender ? theirs : mine;
    const model: LinkModel = {
      linkBps: recvSide[0],
      compressBps: Math.min(mine[1], theirs[1]),
      decompressBps: Math.min(mine[2], theirs[2]),
    };
    const chunks = Math.max(1, chunkCount(bytes, 2, policy.chunkBytes));
    const modelled = policy.predictCompressed(bytes, recvSide[4], 2, model, 0);
    model.stepSeconds = Math.max(1e-6, (recvSide[3] - modelled) / (chunks + 2));
    policy.setLink(peer, model);
    return model;
  } finally {
    buf.free();
    msg.free();
    theirsBuf.free();
    t0.destroy();
    t1.destroy();
    if (own) stream.destroy();
  }
}

/** `count` bf16 values of gaussian(0, 0.02), a tiled 64 Ki pattern (only the distribution matters). */
function gaussianBf16(count: number): Uint16Array {
  const host = new Uint16Array(count);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  let s = 12345;
  const n = Math.min(count, 65536);
  for (let i = 0; i < n; i++) {
    s = (s * 1664525 + 1013904223) >>> 0;
    const u1 = (s + 1) / 4294967297;
    s = (s * 1664525 + 1013904223) >>> 0;
    const u2 = s / 4294967296;
    f[0] = 0.02 * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    host[i] = u[0] >>> 16;
  }
  for (let i = n; i < count; i += n) host.copyWithin(i, 0, Math.min(n, count - i));
  return host;
}

/** Times the GPU codec of `device` on `host` (bf16): raw bytes/s each way, and compressed/raw. */
async function measureCodec(
  device: number,
  stream: Stream,
  host: Uint16Array,
): Promise<{ compressBps: number; decompressBps: number; ratio: number }> {
  const { GpuCodec } = await import("./gpu_codec.ts");
  const { maxCompressedSize } = await import("./codec.ts");
  const count = host.length;
  const codec = GpuCodec.create(device);
  const src = DeviceBuffer.alloc(device, count * 2);
  const dst = DeviceBuffer.alloc(device, maxCompressedSize(count, "bf16", { split: true }));
  const back = DeviceBuffer.alloc(device, count * 2);
  const a = CudaEvent.create(device), b = CudaEvent.create(device), c = CudaEvent.create(device);
  try {
    src.upload(host, stream);
    codec.compress(src, count, "bf16", dst, stream, { split: true });
    await stream.synchronizeAsync();
    const size = codec.compressedSize();
    codec.decompress(dst, size, back, stream);
    a.record(stream);
    for (let i = 0; i < 3; i++) codec.compress(src, count, "bf16", dst, stream, { split: true });
    b.record(stream);
    for (let i = 0; i < 3; i++) codec.decompress(dst, size, back, stream);
    c.record(stream);
    await c.synchronizeAsync();
    return {
      compressBps: (3 * count * 2) / (CudaEvent.elapsedMs(a, b) / 1e3),
      decompressBps: (3 * count * 2) / (CudaEvent.elapsedMs(b, c) / 1e3),
      ratio: size / (count * 2),
    };
  } finally {
    src.free();
    dst.free();
    back.free();
    a.destroy();
    b.destroy();
    c.destroy();
    codec.dispose();
  }
}
