/**
 * Communicators: one NCCL communicator per rank, on one GPU. NCCL is loaded at run time
 * (`libnccl.so.2`, or the path in `UZIP_NCCL_LIB`; version >= 2.19).
 *
 * A communicator is made from a 128-byte unique id that one rank creates and every rank is given. The
 * launcher (`deno task launch -n N script.ts`, see `src/launch.ts`) hands it out through a loopback
 * rendezvous, so inside a launched script {@linkcode Communicator.fromLaunch} is all it takes:
 *
 * ```ts
 * using comm = await Communicator.fromLaunch();
 * console.log(comm.rank, comm.size);
 * ```
 *
 * @module
 */
import { native } from "../ffi/deno.ts";
import { checkInt, errorFor, InvalidArgumentError, NcclError, unwrap } from "./errors.ts";
import type { Stream } from "./device.ts";
import { rendezvousGet, rendezvousSet } from "./rendezvous.ts";

/** Options of {@linkcode Communicator.init}. */
export interface CommInitOptions {
  /** The unique id from {@linkcode Communicator.uniqueId} (128 bytes), the same on every rank. */
  id: Uint8Array;
  /** This process's rank in [0, size). */
  rank: number;
  /** Number of ranks. */
  size: number;
  /** CUDA device index of this rank (default: the rank). */
  device?: number;
  /** Limit for the rendezvous and for every later wait on a peer, in ms (default 60000). */
  timeoutMs?: number;
}

/** The NCCL version libuzip loaded, e.g. 22805 for 2.28.5. Throws NcclError when NCCL is missing. */
export function ncclVersion(): number {
  const out = new Int32Array(1);
  unwrap(native().uzipNcclVersion(out));
  return out[0];
}

/**
 * Checks the status of a communicator call that ran on a worker thread (Deno's nonblocking FFI): the
 * failure message is the one libuzip kept for `handle` (0n: the last failed init), since that thread's
 * uzipLastError() cannot be read from here.
 */
export function unwrapAsync(status: number, handle: bigint): void {
  if (status === 0) return;
  const out = new Uint8Array(512);
  const s = native().uzipCommLastError(handle, out, out.length);
  const end = out.indexOf(0);
  const message = s === 0
    ? new TextDecoder().decode(out.subarray(0, end < 0 ? out.length : end))
    : `unknown or destroyed communicator handle 0x${handle.toString(16)}`; // no communicator kept it
  throw errorFor(status, message || `status ${status}`);
}

const registry = new FinalizationRegistry<bigint>((h) => void native().uzipCommDestroy(h));

/** A communicator of `size` ranks; this object is rank {@linkcode Communicator.rank}. */
export class Communicator {
  #handle: bigint;
  /** This rank. */
  readonly rank: number;
  /** Number of ranks. */
  readonly size: number;
  /** CUDA device of this rank. */
  readonly device: number;
  /** Default limit of waits on peers (ms). */
  readonly timeoutMs: number;

  private constructor(handle: bigint, rank: number, size: number, device: number, timeoutMs: number) {
    this.#handle = handle;
    this.rank = rank;
    this.size = size;
    this.device = device;
    this.timeoutMs = timeoutMs;
    registry.register(this, handle, this);
  }

  /** A fresh unique id (128 bytes) for a new communicator; make it on one rank, give it to all. */
  static uniqueId(): Uint8Array {
    const id = new Uint8Array(128);
    unwrap(native().uzipCommUniqueId(id));
    return id;
  }

  /**
   * Joins the communicator `id` as `rank` of `size`. Resolves once every rank has joined; rejects with
   * TimeoutError when a rank does not arrive within `timeoutMs`, NcclError when NCCL fails.
   */
  static async init(opts: CommInitOptions): Promise<Communicator> {
    if (!(opts.id instanceof Uint8Array) || opts.id.length !== 128) {
      throw new InvalidArgumentError("id must be the 128-byte Uint8Array of Communicator.uniqueId()");
    }
    const size = checkInt(opts.size, "size", 1, 1 << 20);
    const rank = checkInt(opts.rank, "rank", 0, size - 1);
    const device = checkInt(opts.device ?? rank, "device", 0, 1 << 16);
    const timeoutMs = checkInt(opts.timeoutMs ?? 60000, "timeoutMs", 1, 0xffffffff);
    const out = new BigUint64Array(1);
    const id = opts.id.slice();
    unwrapAsync(await native().uzipCommInitAsync(id, size, rank, device, timeoutMs, out), 0n);
    return new Communicator(out[0], rank, size, device, timeoutMs);
  }

  /**
   * The communicator of a process started by the launcher: rank, size, device and the rendezvous
   * address come from `UZIP_RANK`, `UZIP_WORLD_SIZE`, `UZIP_DEVICE` and `UZIP_RENDEZVOUS`; rank 0 makes
   * the unique id and publishes it there, the others fetch it.
   */
  static async fromLaunch(opts: { timeoutMs?: number; key?: string } = {}): Promise<Communicator> {
    const env = launchEnv();
    const key = opts.key ?? "nccl-id";
    const timeoutMs = opts.timeoutMs ?? 60000;
    let id: Uint8Array;
    if (env.rank === 0) {
      id = Communicator.uniqueId();
      await rendezvousSet(env.rendezvous, key, id);
    } else {
      id = await rendezvousGet(env.rendezvous, key, timeoutMs);
    }
    return await Communicator.init({ id, rank: env.rank, size: env.size, device: env.device, timeoutMs });
  }

  /** The native handle (for other parts of the library). Throws after destroy(). */
  get handle(): bigint {
    if (this.#handle === 0n) throw new InvalidArgumentError("communicator was destroyed");
    return this.#handle;
  }

  /** Whether the communicator was aborted (by abort() or by a failed/timed-out transfer). */
  get aborted(): boolean {
    const out = new Int32Array(4);
    unwrap(native().uzipCommInfo(this.handle, out));
    return out[3] !== 0;
  }

  /**
   * Pipeline settings (both sides of a transfer must use the same chunkBytes): the largest chunk of a
   * compressed transfer, and the SMs the codec may occupy (the rest stay free for NCCL's kernels).
   */
  configure(opts: { chunkBytes?: number; codecSms?: number }): void {
    unwrap(native().uzipP2pConfigure(this.handle, BigInt(opts.chunkBytes ?? 0), opts.codecSms ?? 0));
  }

  /**
   * Waits until `stream` and the communicator's internal streams are idle, and reports any received
   * chunk that failed to decode. Rejects with TimeoutError (and aborts) past `timeoutMs`.
   */
  async synchronize(stream?: Stream, timeoutMs: number = this.timeoutMs): Promise<void> {
    const s = stream?.handle ?? 0n;
    unwrapAsync(await native().uzipCommSynchronizeAsync(this.handle, s, timeoutMs), this.handle);
  }

  /** Ends all outstanding work now (e.g. a peer died); the communicator is unusable afterwards. */
  abort(): void {
    if (this.#handle === 0n) return;
    unwrap(native().uzipCommAbort(this.#handle));
  }

  /** Finalizes and frees the communicator (aborting it if peers do not finish in time). Idempotent. */
  destroy(): void {
    if (this.#handle === 0n) return;
    const h = this.#handle;
    this.#handle = 0n;
    registry.unregister(this);
    unwrap(native().uzipCommDestroy(h));
  }

  /** Same as destroy(). */
  [Symbol.dispose](): void {
    this.destroy();
  }
}

/** What the launcher tells each process. */
export interface LaunchEnv {
  /** This process's rank, 0 .. size-1. */
  rank: number;
  /** Number of ranks. */
  size: number;
  /** The CUDA device this rank uses. */
  device: number;
  /** host:port of the launcher's loopback rendezvous store. */
  rendezvous: string;
}

/** Reads the launcher's variables; throws a clear error when the process was not launched. */
export function launchEnv(): LaunchEnv {
  const get = (name: string) => Deno.env.get(name);
  const rank = get("UZIP_RANK"), size = get("UZIP_WORLD_SIZE"), rdv = get("UZIP_RENDEZVOUS");
  if (rank === undefined || size === undefined || rdv === undefined) {
    throw new NcclError(
      "not started by the launcher (UZIP_RANK / UZIP_WORLD_SIZE / UZIP_RENDEZVOUS unset): " +
        "run `deno task launch -n N script.ts`",
    );
  }
  return {
    rank: Number(rank),
    size: Number(size),
    device: Number(get("UZIP_DEVICE") ?? rank),
    rendezvous: rdv,
  };
}
