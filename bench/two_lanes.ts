// Plain NCCL transfers halved over two communicators of the same ranks, each on its own stream: the
// reference for what a second "lane" buys (NCCL gives a peer reached through host memory 2 channels per
// communicator). Used by bench/p2p.ts (mode plain2) and bench/nccl_ops.ts (--comms 2).
import { Communicator } from "../src/comm.ts";
import { CudaEvent, type Stream } from "../src/device.ts";
import { dtypeWidth } from "../src/dtype.ts";
import { p2p, type P2pOp } from "../src/p2p.ts";

/** A second communicator of the launched ranks, with a stream and the events that order it. */
export class TwoLanes {
  readonly #comm: Communicator;
  readonly #second: Communicator;
  readonly #stream2: Stream;
  readonly #fork: CudaEvent;
  readonly #join: CudaEvent;

  private constructor(comm: Communicator, second: Communicator, stream2: Stream) {
    this.#comm = comm;
    this.#second = second;
    this.#stream2 = stream2;
    this.#fork = CudaEvent.create(comm.device);
    this.#join = CudaEvent.create(comm.device);
  }

  /** Every launched rank calls this at the same point (it makes a communicator). */
  static async open(comm: Communicator, stream2: Stream): Promise<TwoLanes> {
    const second = await Communicator.fromLaunch({ timeoutMs: comm.timeoutMs, key: "nccl-id-2" });
    return new TwoLanes(comm, second, stream2);
  }

  /**
   * Runs `ops` plain, each halved by elements: the first half over the first communicator on `stream`,
   * the second over the second one on its stream; `stream` waits for both.
   */
  async run(ops: P2pOp[], stream: Stream): Promise<void> {
    const halves = ops.map((op) => {
      const count = op.count ?? 0, first = Math.floor(count / 2), w = dtypeWidth(op.dtype);
      return [{ ...op, count: first }, { ...op, count: count - first, offset: (op.offset ?? 0) + first * w }];
    });
    this.#fork.record(stream);
    this.#stream2.waitEvent(this.#fork);
    await p2p(this.#comm, halves.map((h) => h[0]), { compress: "never", stream });
    await p2p(this.#second, halves.map((h) => h[1]), { compress: "never", stream: this.#stream2 });
    this.#join.record(this.#stream2);
    stream.waitEvent(this.#join);
  }

  /** Destroys the second communicator and the events (not the stream, which the caller owns). */
  close(): void {
    this.#second.destroy();
    this.#fork.destroy();
    this.#join.destroy();
  }
}
