/**
 * Compressed collectives with NCCL's API shape: all-reduce, reduce-scatter, all-gather, all-to-all,
 * broadcast and reduce on device buffers of a communicator, stream-ordered like NCCL's. Each call picks
 * a path by `compress`: `"never"` runs plain NCCL; `"always"` compresses, every collective through the
 * pipelined executor (the plain schedule's data flow, each of its exchanges a chunked, pipelined
 * compressed P2P exchange, reductions stream-ordered between them; `UZIP_COLL_PIPELINE=0` selects the
 * per-hop compressed schedule instead, each hop decoded, reduced and re-encoded); `"auto"`
 * (default) compresses only where a measured model predicts a gain ({@linkcode calibrateCollectives}),
 * else plain NCCL; `"plainSchedule"` is the same schedule without compression (the exact reference).
 *
 * {@linkcode simulateCollective} runs the same schedules on N ranks as threads of this process, over an
 * in-process transport with the CPU codec, on host arrays: CI checks every collective with it on a
 * machine without a GPU. The reduction order is stated in `docs/COLLECTIVES.md`.
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import type { Communicator } from "./comm.ts";
import { CudaEvent, DeviceBuffer, Stream } from "./device.ts";
import { unwrapAsync } from "./comm.ts";
import { calibrate } from "./p2p.ts";
import type { LinkModel } from "./policy.ts";
import { type DType, dtypeId, dtypeWidth } from "./dtype.ts";
import { InvalidArgumentError, unwrap } from "./errors.ts";

/** A collective operation. */
export type CollectiveKind =
  | "allReduce"
  | "reduceScatter"
  | "allGather"
  | "allToAll"
  | "broadcast"
  | "reduce";
/** Every collective, in C ABI order (index = id). */
export const COLLECTIVES: readonly CollectiveKind[] = [
  "allReduce",
  "reduceScatter",
  "allGather",
  "allToAll",
  "broadcast",
  "reduce",
];
/** A reduction operator (ncclRedOp_t numbering). */
export type ReduceOp = "sum" | "prod" | "max" | "min" | "avg";
/** Every reduction operator, in C ABI order (index = id). */
export const REDUCE_OPS: readonly ReduceOp[] = ["sum", "prod", "max", "min", "avg"];
/** Which path a collective takes. */
export type CompressMode = "never" | "always" | "auto" | "plainSchedule";
const MODES: readonly CompressMode[] = ["never", "always", "auto", "plainSchedule"];

/** Options of every collective. */
export interface CollectiveOptions {
  /** The path (default `"auto"`); `true` means `"always"`, `false` `"never"`. */
  compress?: CompressMode | boolean;
}

/**
 * Anything that carries a communicator handle (a `Communicator`), or the raw handle. When it also tells
 * `rank` and `size` (a `Communicator` does, and its `device`), every `DeviceBuffer` argument is checked
 * against what the collective reads or writes there, and against the communicator's device, before the
 * call.
 */
export type CommLike =
  | { readonly handle: bigint; readonly rank?: number; readonly size?: number; readonly device?: number }
  | bigint;
/** A device buffer, or a raw device pointer (for offsets into a buffer). */
export type DevicePtr = DeviceBuffer | bigint;

/** Whether a dtype can be reduced (all float types; not `"bytes"`). */
export function isReducible(dtype: DType): boolean {
  return dtype !== "bytes";
}

function commHandle(comm: CommLike): bigint {
  return typeof comm === "bigint" ? comm : comm.handle;
}
// How many times `count` elements a collective reads from send / writes to recv on a rank.
type Elems = (n: number, rank: number) => bigint;
type Shape = readonly [send: Elems, recv: Elems];
const ONE: Elems = () => 1n;
const ALL: Elems = (n) => BigInt(n);
const atRoot = (root: number): Elems => (_n, rank) => (rank === root ? 1n : 0n);
const ALL_REDUCE: Shape = [ONE, ONE], REDUCE_SCATTER: Shape = [ALL, ONE];
const ALL_GATHER: Shape = [ONE, ALL], ALL_TO_ALL: Shape = [ALL, ALL];
// Checks the DeviceBuffer arguments: alive, on the communicator's device, and large enough for what the
// collective touches in them. Raw pointers are the caller's word (as with NCCL); so is every buffer when
// the communicator's shape is unknown (a raw handle).
function checkBuffers(
  comm: CommLike,
  shape: Shape,
  send: DevicePtr | null,
  recv: DevicePtr | null,
  count: number | bigint,
  dtype: DType,
): void {
  if (typeof comm === "bigint" || comm.size === undefined || comm.rank === undefined) return;
  const { size, rank, device } = comm;
  ([["send", send, shape[0]], ["recv", recv, shape[1]]] as const).forEach(([what, p, elems]) => {
    if (p === null || typeof p === "bigint") return;
    if (p.freed) throw new InvalidArgumentError(`${what}: the device buffer was freed`);
    if (device !== undefined && p.device !== device) {
      throw new InvalidArgumentError(
        `${what}: a buffer on device ${p.device}; the communicator is on ${device}`,
      );
    }
    const need = elems(size, rank) * countOf(count) * BigInt(dtypeWidth(dtype));
    if (need > BigInt(p.bytes)) {
      throw new InvalidArgumentError(
        `${what}: the collective touches ${need} bytes; the buffer holds ${p.bytes}`,
      );
    }
  });
}
function ptrOf(p: DevicePtr | null | undefined): bigint {
  if (p === null || p === undefined) return 0n;
  return typeof p === "bigint" ? p : p.ptr;
}
function streamOf(s: Stream | undefined): bigint {
  return s === undefined ? 0n : s.handle;
}
function modeId(o: CollectiveOptions | undefined): number {
  const c = o?.compress ?? "auto";
  if (c === true) return 1;
  if (c === false) return 0;
  const id = MODES.indexOf(c);
  if (id < 0) throw new InvalidArgumentError(`unknown compress mode ${JSON.stringify(c)}`);
  return id;
}
function opId(op: ReduceOp): number {
  const id = REDUCE_OPS.indexOf(op);
  if (id < 0) throw new InvalidArgumentError(`unknown reduction op ${JSON.stringify(op)}`);
  return id;
}
function countOf(count: number | bigint): bigint {
  const c = BigInt(count);
  if (c < 0n) throw new InvalidArgumentError(`negative count ${count}`);
  return c;
}

// The C functions' argument lists, shared by the blocking calls and their nonblocking twins.
function allReduceArgs(
  shape: Shape,
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  stream?: Stream,
  options?: CollectiveOptions,
) {
  checkBuffers(comm, shape, send, recv, count, dtype);
  const c = commHandle(comm), m = modeId(options);
  return [
    c,
    ptrOf(send),
    ptrOf(recv),
    countOf(count),
    dtypeId(dtype),
    opId(op),
    streamOf(stream),
    m,
  ] as const;
}
function allGatherArgs(
  shape: Shape,
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  stream?: Stream,
  options?: CollectiveOptions,
) {
  checkBuffers(comm, shape, send, recv, count, dtype);
  const c = commHandle(comm), m = modeId(options);
  return [c, ptrOf(send), ptrOf(recv), countOf(count), dtypeId(dtype), streamOf(stream), m] as const;
}
function broadcastArgs(
  comm: CommLike,
  send: DevicePtr | null,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
) {
  checkBuffers(comm, [atRoot(root), ONE], send, recv, count, dtype);
  const c = commHandle(comm), m = modeId(options);
  return [c, ptrOf(send), ptrOf(recv), countOf(count), dtypeId(dtype), root, streamOf(stream), m] as const;
}
function reduceArgs(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr | null,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
) {
  checkBuffers(comm, [ONE, atRoot(root)], send, recv, count, dtype);
  const c = commHandle(comm), m = modeId(options);
  return [
    c,
    ptrOf(send),
    ptrOf(recv),
    countOf(count),
    dtypeId(dtype),
    opId(op),
    root,
    streamOf(stream),
    m,
  ] as const;
}
// A nonblocking call's end: its status, with the message the communicator kept (the call ran on a worker
// thread, whose last error this thread cannot read). `keep` holds the caller's buffers and stream until
// the call has returned, so that no finalizer frees them under it.
async function settle(status: Promise<number>, comm: bigint, keep: readonly unknown[]): Promise<void> {
  try {
    unwrapAsync(await status, comm);
  } finally {
    holdUntilHere(keep);
  }
}
// A use of its argument after the await, which keeps it reachable while the call runs.
function holdUntilHere(_: unknown): void {}

/** recv = reduce(op) of every rank's send (count elements). In place when send and recv are equal. */
export function allReduce(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(
    native().uzipAllReduce(...allReduceArgs(ALL_REDUCE, comm, send, recv, count, dtype, op, stream, options)),
  );
}

/** recv (recvCount elements) = block `rank` of the reduction of every rank's send (nranks × recvCount). */
export function reduceScatter(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  recvCount: number | bigint,
  dtype: DType,
  op: ReduceOp,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(
    native().uzipReduceScatter(
      ...allReduceArgs(REDUCE_SCATTER, comm, send, recv, recvCount, dtype, op, stream, options),
    ),
  );
}

/** recv (nranks × sendCount elements) = every rank's send, in rank order. */
export function allGather(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  sendCount: number | bigint,
  dtype: DType,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(
    native().uzipAllGather(...allGatherArgs(ALL_GATHER, comm, send, recv, sendCount, dtype, stream, options)),
  );
}

/** Block p of recv = block `rank` of rank p's send; count elements per block. */
export function allToAll(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(
    native().uzipAllToAll(...allGatherArgs(ALL_TO_ALL, comm, send, recv, count, dtype, stream, options)),
  );
}

/** recv = root's send (count elements); send is read on the root only. */
export function broadcast(
  comm: CommLike,
  send: DevicePtr | null,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(native().uzipBroadcast(...broadcastArgs(comm, send, recv, count, dtype, root, stream, options)));
}

/** The root's recv = reduce(op) of every rank's send; recv is written on the root only. */
export function reduce(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr | null,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
): void {
  unwrap(native().uzipReduce(...reduceArgs(comm, send, recv, count, dtype, op, root, stream, options)));
}

// The nonblocking twins. A compressed collective waits on the host inside the call (for the coded sizes
// that NCCL needs before it can post each chunk), for about as long as the transfer; these run that call
// on a worker thread, so the JS thread stays free, and settle when the call has returned: as with the
// blocking form, its work is then enqueued on `stream` (plain NCCL: only enqueued), and a stream
// synchronization (or `comm.synchronize`) waits for the results. Calls on one communicator run one at a
// time in the order the library receives them; await each before the next, as with NCCL's own ordering.
// Bad arguments reject the promise (they are checked before the call leaves this thread).

/** {@linkcode allReduce} on a worker thread. */
export async function allReduceAsync(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = allReduceArgs(ALL_REDUCE, comm, send, recv, count, dtype, op, stream, options);
  await settle(native().uzipAllReduceAsync(...a), a[0], [comm, send, recv, stream]);
}

/** {@linkcode reduceScatter} on a worker thread. */
export async function reduceScatterAsync(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  recvCount: number | bigint,
  dtype: DType,
  op: ReduceOp,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = allReduceArgs(REDUCE_SCATTER, comm, send, recv, recvCount, dtype, op, stream, options);
  await settle(native().uzipReduceScatterAsync(...a), a[0], [comm, send, recv, stream]);
}

/** {@linkcode allGather} on a worker thread. */
export async function allGatherAsync(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  sendCount: number | bigint,
  dtype: DType,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = allGatherArgs(ALL_GATHER, comm, send, recv, sendCount, dtype, stream, options);
  await settle(native().uzipAllGatherAsync(...a), a[0], [comm, send, recv, stream]);
}

/** {@linkcode allToAll} on a worker thread. */
export async function allToAllAsync(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = allGatherArgs(ALL_TO_ALL, comm, send, recv, count, dtype, stream, options);
  await settle(native().uzipAllToAllAsync(...a), a[0], [comm, send, recv, stream]);
}

/** {@linkcode broadcast} on a worker thread. */
export async function broadcastAsync(
  comm: CommLike,
  send: DevicePtr | null,
  recv: DevicePtr,
  count: number | bigint,
  dtype: DType,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = broadcastArgs(comm, send, recv, count, dtype, root, stream, options);
  await settle(native().uzipBroadcastAsync(...a), a[0], [comm, send, recv, stream]);
}

/** {@linkcode reduce} on a worker thread. */
export async function reduceAsync(
  comm: CommLike,
  send: DevicePtr,
  recv: DevicePtr | null,
  count: number | bigint,
  dtype: DType,
  op: ReduceOp,
  root: number,
  stream?: Stream,
  options?: CollectiveOptions,
): Promise<void> {
  const a = reduceArgs(comm, send, recv, count, dtype, op, root, stream, options);
  await settle(native().uzipReduceAsync(...a), a[0], [comm, send, recv, stream]);
}

/**
 * Whether `mode` resolves to the compressed path for `bytesPerRank` (the larger of the send and receive
 * buffers) of `dtype` on this communicator.
 */
export function resolvesToCompressed(
  comm: CommLike,
  kind: CollectiveKind,
  bytesPerRank: number | bigint,
  options?: CollectiveOptions,
  dtype: DType = "bf16",
): boolean {
  const out = new Int32Array(1);
  unwrap(
    native().uzipCollResolveMode(
      commHandle(comm),
      COLLECTIVES.indexOf(kind),
      BigInt(bytesPerRank),
      dtypeId(dtype),
      modeId(options),
      out,
    ),
  );
  return out[0] === 1;
}

/** The model behind `"auto"`: the P2P link model plus, when measured, plain NCCL's own algbw. */
export interface CollectiveModel extends LinkModel {
  /** Plain NCCL all-reduce algbw (size / time), bytes/s; absent: modelled from the link. */
  allReduceBps?: number;
  /** Plain NCCL all-gather algbw (size / time), bytes/s; absent: modelled from the link. */
  allGatherBps?: number;
}

/**
 * Sets (or with `null` forgets) the measured model behind `"auto"` on this communicator: link and GPU
 * codec bandwidths, the P2P engine's step cost and plain NCCL's algbw (see `docs/COLLECTIVES.md`).
 * Every rank must set the same numbers, because each decides alone; {@linkcode calibrateCollectives}
 * measures and agrees on them.
 */
export function setCollectiveModel(comm: CommLike, model: CollectiveModel | null): void {
  const m: CollectiveModel = model ?? { linkBps: 0, compressBps: 0, decompressBps: 0 };
  unwrap(
    native().uzipCollSetModel(
      commHandle(comm),
      m.linkBps,
      m.compressBps,
      m.decompressBps,
      m.stepSeconds ?? 0,
      m.allReduceBps ?? 0,
      m.allGatherBps ?? 0,
    ),
  );
}

/**
 * Measures the model behind `"auto"` and sets it on every rank. Collective: every rank calls it at the
 * same point. Ranks 2k and 2k+1 run the P2P calibration together (`calibrate` of src/p2p.ts: plain and
 * compressed 32 MiB transfers, the GPU codec timed alone); every rank times plain NCCL all-reduce and
 * all-gather of `bytes` (default 64 MiB) bf16; then one plain NCCL all-reduce makes every rank hold the
 * same numbers (the slowest link, codec and NCCL time, the largest step cost), so that every rank takes
 * the same decision. Without it, `"auto"` is plain NCCL.
 */
export async function calibrateCollectives(
  comm: Communicator,
  opts: { stream?: Stream; bytes?: number } = {},
): Promise<CollectiveModel> {
  const peer = comm.rank ^ 1;
  const own = opts.stream === undefined;
  const stream = opts.stream ?? Stream.create(comm.device);
  const n = comm.size;
  const bytes = Math.max(1, Math.floor((opts.bytes ?? 64 << 20) / (2 * n))) * 2 * n;
  const buf = DeviceBuffer.alloc(comm.device, 32);
  const a = DeviceBuffer.alloc(comm.device, bytes), b = DeviceBuffer.alloc(comm.device, bytes);
  const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
  try {
    const m = peer < n ? await calibrate(comm, peer, { stream }) : undefined;
    // Plain NCCL's own collectives: one warm-up, then 4 timed calls each.
    a.fill(0x3c, stream);
    const o = { compress: "never" as const };
    const nccl = async (kind: "allReduce" | "allGather"): Promise<number> => {
      const call = () =>
        kind === "allReduce"
          ? allReduce(comm, a, b, bytes / 2, "bf16", "sum", stream, o)
          : allGather(comm, a, b, bytes / 2 / n, "bf16", stream, o);
      call();
      t0.record(stream);
      for (let i = 0; i < 4; i++) call();
      t1.record(stream);
      await t1.synchronizeAsync();
      return bytes / (CudaEvent.elapsedMs(t0, t1) / 4 / 1e3);
    };
    const arBps = n > 1 ? await nccl("allReduce") : Infinity;
    const agBps = n > 1 ? await nccl("allGather") : Infinity;
    // min over ranks of [L, C, D, -step, AR, AG] (a rank without a pair contributes +Infinity).
    const v = new Float32Array([
      m?.linkBps ?? Infinity,
      m?.compressBps ?? Infinity,
      m?.decompressBps ?? Infinity,
      m ? -(m.stepSeconds ?? 0) : Infinity,
      arBps,
      agBps,
    ]);
    buf.upload(v, stream);
    allReduce(comm, buf, buf, 6, "fp32", "min", stream, o);
    const agreed = new Float32Array(buf.download(new Uint8Array(24), stream).buffer);
    const model: CollectiveModel = {
      linkBps: agreed[0],
      compressBps: agreed[1],
      decompressBps: agreed[2],
      stepSeconds: Math.max(0, -agreed[3]),
      allReduceBps: agreed[4],
      allGatherBps: agreed[5],
    };
    if (n < 2 || !Number.isFinite(model.linkBps)) return model;
    setCollectiveModel(comm, model);
    return model;
  } finally {
    buf.free();
    a.free();
    b.free();
    t0.destroy();
    t1.destroy();
    if (own) stream.destroy();
  }
}

/** Arguments of {@linkcode simulateCollective}. */
export interface SimulationArgs {
  /** The collective. */
  kind: CollectiveKind;
  /** Every rank's send buffer (the full NCCL size: for broadcast count elements on every rank). */
  inputs: readonly Uint8Array[];
  /** Element type. */
  dtype: DType;
  /** Elements, with NCCL's meaning for `kind` (per rank for reduce-scatter/all-gather/all-to-all). */
  count: number;
  /** Reduction op (reductions only; default "sum"). */
  op?: ReduceOp;
  /** Root rank (broadcast, reduce; default 0). */
  root?: number;
  /**
   * Run the compressed schedule (default true), the plain one (false), or `"pipelined"`: the GPU path's
   * executor (the plain schedule's data flow with every exchange compressed; here by compress / send /
   * receive / decode instead of the P2P engine).
   */
  compress?: boolean | "pipelined";
  /** Elements per pipeline chunk (default: the library's). */
  chunkElems?: number;
  /** Use NCCL's in-place buffer layout. */
  inPlace?: boolean;
  /** Fault injection: the last rank never joins, so the others must fail with a timeout. */
  dropLastRank?: boolean;
  /**
   * Run every rank's backend on the current GPU (GPU codec and reduce kernels, buffers in device memory)
   * instead of the CPU: the same schedules with the GPU backend, on one GPU. Throws
   * `NoDeviceError` without one.
   */
  gpu?: boolean;
  /** Bound on every wait, in ms (default 20000). */
  timeoutMs?: number;
  /** Initial contents of every rank's receive buffer (default zeros); reduce's non-roots keep theirs. */
  initialOutputs?: readonly Uint8Array[];
}

/** What {@linkcode simulateCollective} returns. */
export interface SimulationResult {
  /** Every rank's receive buffer. */
  outputs: Uint8Array[];
  /** Bytes every rank sent, in total (compressed bytes in compressed mode). */
  bytesSent: number;
  /** Messages sent, in total. */
  messages: number;
}

/** Bytes of one rank's send and receive buffers for a collective. */
export function bufferBytes(kind: CollectiveKind, nranks: number, count: number, dtype: DType): {
  send: number;
  recv: number;
} {
  const w = dtypeWidth(dtype);
  const sendMul = kind === "reduceScatter" || kind === "allToAll" ? nranks : 1;
  const recvMul = kind === "allGather" || kind === "allToAll" ? nranks : 1;
  return { send: count * w * sendMul, recv: count * w * recvMul };
}

/**
 * Runs a collective on `inputs.length` simulated ranks (threads of this process, in-process transport,
 * CPU codec) and returns every rank's output. Same schedules as the GPU path.
 */
export function simulateCollective(args: SimulationArgs): SimulationResult {
  const n = args.inputs.length;
  const kind = COLLECTIVES.indexOf(args.kind);
  if (kind < 0) throw new InvalidArgumentError(`unknown collective ${JSON.stringify(args.kind)}`);
  if (!Number.isSafeInteger(args.count) || args.count < 0) {
    throw new InvalidArgumentError(`bad count ${args.count}`);
  }
  const { send, recv } = bufferBytes(args.kind, n, args.count, args.dtype);
  const sendAll = new Uint8Array(send * n);
  const recvAll = new Uint8Array(recv * n);
  args.inputs.forEach((input, r) => {
    if (input.length !== send) {
      throw new InvalidArgumentError(`rank ${r} input has ${input.length} bytes, expected ${send}`);
    }
    sendAll.set(input, r * send);
  });
  args.initialOutputs?.forEach((o, r) => {
    if (o.length !== recv) throw new InvalidArgumentError(`rank ${r} initial output is not ${recv} bytes`);
    recvAll.set(o, r * recv);
  });
  const stats = new BigUint64Array(2);
  const flags = (args.inPlace ? 1 : 0) | (args.dropLastRank ? 2 : 0) | (args.gpu ? 4 : 0);
  unwrap(
    native().uzipSimulateCollective(
      kind,
      n,
      dtypeId(args.dtype),
      opId(args.op ?? "sum"),
      BigInt(args.count),
      args.root ?? 0,
      args.compress === false ? 0 : args.compress === "pipelined" ? 2 : 1,
      BigInt(args.chunkElems ?? 0),
      flags,
      sendAll,
      BigInt(send),
      recvAll,
      BigInt(recv),
      args.timeoutMs ?? 0,
      stats,
    ),
  );
  const outputs: Uint8Array[] = [];
  for (let r = 0; r < n; r++) outputs.push(recvAll.slice(r * recv, (r + 1) * recv));
  return { outputs, bytesSent: Number(stats[0]), messages: Number(stats[1]) };
}
