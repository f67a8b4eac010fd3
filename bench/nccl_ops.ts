// How NCCL's send/recv time depends on how a step's bytes are split into operations: one operation of
// B bytes against two (3/4 and 1/4 of B) in one group, back to back, plain NCCL only. The question it
// answers: does the P2P engine gain by sending head(t) and body(t - 2) as one contiguous operation?
//   deno task launch -n 2 bench/nccl_ops.ts [--bytes 22MiB,1MiB] [--k 20] [--reps 7] [--bidir 1] [--comms 2]
// --comms 2 adds a shape "split": each operation's bytes halved over two communicators of the same ranks
// on two streams (NCCL gives a peer reached through host memory 2 channels per communicator).
// Rank 0 sends, rank 1 receives (--bidir 1: both do both, as in an all-gather exchange); rank 1 prints
// the median per-step time (CUDA events, k steps per batch).
import { Communicator } from "../src/comm.ts";
import { CudaEvent, DeviceBuffer, Stream } from "../src/device.ts";
import { p2p, type P2pOp } from "../src/p2p.ts";
import { median, parseBytes } from "./stats.ts";
import { TwoLanes } from "./two_lanes.ts";

const args = new Map<string, string>();
for (let i = 0; i < Deno.args.length; i += 2) args.set(Deno.args[i].replace(/^--/, ""), Deno.args[i + 1]);
const sizes = (args.get("bytes") ?? "22MiB,6MiB,1MiB").split(",").map(parseBytes);
const k = Number(args.get("k") ?? 20), reps = Number(args.get("reps") ?? 7);
using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const bidir = args.get("bidir") === "1";
const peer = 1 - comm.rank;
const kinds = bidir ? ["send", "recv"] as const : [comm.rank === 0 ? "send" as const : "recv" as const];
const stream = Stream.create(comm.device);
const stream2 = Stream.create(comm.device);
const lanes = Number(args.get("comms") ?? 1) > 1 ? await TwoLanes.open(comm, stream2) : undefined;
const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
const buf = DeviceBuffer.alloc(comm.device, Math.max(...sizes));
const buf2 = DeviceBuffer.alloc(comm.device, Math.max(...sizes));
const rbuf = DeviceBuffer.alloc(comm.device, Math.max(...sizes));
const rbuf2 = DeviceBuffer.alloc(comm.device, Math.max(...sizes));
for (const bytes of sizes) {
  const a = Math.floor((bytes * 3) / 4 / 256) * 256;
  const shapes: Record<string, P2pOp[]> = {
    one: kinds.map((kind) => ({
      kind,
      peer,
      buffer: kind === "send" ? buf : rbuf,
      dtype: "bytes",
      count: bytes,
    })),
    two: kinds.flatMap((kind) => [
      { kind, peer, buffer: kind === "send" ? buf : rbuf, dtype: "bytes", count: a },
      { kind, peer, buffer: kind === "send" ? buf2 : rbuf2, dtype: "bytes", count: bytes - a },
    ]),
  };
  const times: Record<string, number[]> = { one: [], two: [], split: [] };
  const run = async (name: string, ops: P2pOp[]) => {
    if (name === "split" && lanes) await lanes.run(shapes.one, stream);
    else await p2p(comm, ops, { compress: "never", stream });
  };
  if (lanes) shapes.split = [];
  for (let r = 0; r <= reps; r++) {
    for (const [name, ops] of Object.entries(shapes)) {
      await run(name, ops);
      t0.record(stream);
      for (let j = 0; j < k; j++) await run(name, ops);
      t1.record(stream);
      await t1.synchronizeAsync();
      if (r > 0) times[name].push((CudaEvent.elapsedMs(t0, t1) * 1e3) / k);
    }
  }
  if (comm.rank === 1) {
    const one = median(times.one), two = median(times.two);
    if (lanes) {
      const split = median(times.split);
      console.log(
        `${bidir ? "both ways, " : ""}${(bytes / 2 ** 20).toFixed(1)} MiB: over 2 communicators ${
          split.toFixed(1)
        } us (${(bytes / split / 1e3).toFixed(1)} GB/s)`,
      );
    }
    console.log(
      `${bidir ? "both ways, " : ""}${(bytes / 2 ** 20).toFixed(1)} MiB: one op ${one.toFixed(1)} us (${
        (bytes / one / 1e3).toFixed(1)
      } GB/s), ` +
        `two ops ${two.toFixed(1)} us (${(bytes / two / 1e3).toFixed(1)} GB/s), two - one ${
          (two - one).toFixed(1)
        } us`,
    );
  }
}
lanes?.close();
buf.free();
buf2.free();
rbuf.free();
rbuf2.free();
stream.destroy();
stream2.destroy();
