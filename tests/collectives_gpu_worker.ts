// One rank of tests/collectives_gpu_test.ts (started by the launcher). For every collective, dtype,
// op and odd size: the compressed schedule ("always") must equal the same schedule uncompressed
// ("plainSchedule") bit for bit, and on 2 ranks both must equal plain NCCL ("never") where NCCL has
// the collective. Exits non-zero with the failing cases listed.
import { Communicator } from "../src/comm.ts";
import {
  allGather,
  allReduce,
  allToAll,
  broadcast,
  type CompressMode,
  reduce,
  reduceScatter,
} from "../src/collectives.ts";
import { DeviceBuffer, Stream } from "../src/device.ts";
import type { DType } from "../src/dtype.ts";
import { makeDataset } from "../bench/data/synthetic.ts";

const WIDTH: Record<string, number> = { bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const n = comm.size, rank = comm.rank;
const stream = Stream.create(comm.device);
const failures: string[] = [];
let checked = 0;
const MAX = 1_000_003 * 4 * n;
const send = DeviceBuffer.alloc(comm.device, MAX), recv = DeviceBuffer.alloc(comm.device, MAX);

for (const dtype of ["bf16", "fp16", "fp32", "fp8e4m3"] as DType[]) {
  const w = WIDTH[dtype];
  for (const count of [1, 1001, 1_000_003]) {
    const data = makeDataset("gaussian", dtype, count * n, 77 + rank);
    send.upload(data, stream);
    for (const op of ["sum", "max", "avg"] as const) {
      for (const kind of ["allReduce", "reduceScatter", "allGather", "allToAll", "broadcast", "reduce"]) {
        const reduces = kind === "allReduce" || kind === "reduceScatter" || kind === "reduce";
        if (!reduces && op !== "sum") continue;
        const outBytes = (kind === "allGather" || kind === "allToAll" ? count * n : count) * w;
        const results: Partial<Record<CompressMode, Uint8Array>> = {};
        for (const mode of ["never", "plainSchedule", "always"] as CompressMode[]) {
          if (mode === "never" && dtype.startsWith("fp8")) continue; // NCCL fp8 support varies by build
          recv.fill(0xab, stream);
          const o = { compress: mode };
          try {
            if (kind === "allReduce") allReduce(comm, send, recv, count, dtype, op, stream, o);
            else if (kind === "reduceScatter") reduceScatter(comm, send, recv, count, dtype, op, stream, o);
            else if (kind === "allGather") allGather(comm, send, recv, count, dtype, stream, o);
            else if (kind === "allToAll") allToAll(comm, send, recv, count, dtype, stream, o);
            else if (kind === "broadcast") broadcast(comm, send, recv, count, dtype, 1 % n, stream, o);
            else reduce(comm, send, recv, count, dtype, op, 0, stream, o);
          } catch (e) {
            failures.push(`${kind} ${dtype} ${op} ${count} ${mode}: threw ${e}`);
            continue;
          }
          stream.synchronize();
          results[mode] = recv.download(new Uint8Array(outBytes), stream);
        }
        const cmp = (a: CompressMode, b: CompressMode) => {
          const x = results[a], y = results[b];
          if (!x || !y) return;
          if (kind === "reduce" && rank !== 0) return;
          // NCCL's ring for n > 2 folds in its own order: only 2 ranks are comparable bit for bit.
          if ((a === "never" || b === "never") && n !== 2) return;
          checked++;
          let wrong = 0;
          for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) wrong++;
          if (wrong) {
            failures.push(`${kind} ${dtype} ${op} count=${count}: ${a} vs ${b}: ${wrong} bytes differ`);
          }
        };
        cmp("always", "plainSchedule");
        if (kind !== "allToAll" && kind !== "reduce") cmp("always", "never");
      }
    }
  }
}
console.log(`rank ${rank}: ${checked} comparisons, ${failures.length} failures`);
for (const f of failures.slice(0, 20)) console.log(`FAIL ${f}`);
send.free();
recv.free();
stream.destroy();
if (failures.length) Deno.exit(1);
