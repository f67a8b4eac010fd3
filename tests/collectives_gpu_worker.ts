// One rank of tests/collectives_gpu_test.ts (started by the launcher). For every collective, dtype,
// op and odd size: the compressed path ("always": the pipelined executor over the P2P engine) must equal
// the same schedule uncompressed ("plainSchedule") bit for bit, and on 2 ranks must equal plain NCCL
// ("never") where NCCL has the collective; the nonblocking twins (bf16, the large size) must give the
// blocking calls' bytes. Then the
// pipelined executor with small P2P chunks (many chunks per exchange: staging slots reused), in place
// and not, and "auto" under a model that makes it compress. Exits non-zero with the failing cases.
import { Communicator } from "../src/comm.ts";
import {
  allGather,
  allGatherAsync,
  allReduce,
  allReduceAsync,
  allToAll,
  allToAllAsync,
  broadcast,
  broadcastAsync,
  type CompressMode,
  reduce,
  reduceAsync,
  reduceScatter,
  reduceScatterAsync,
  resolvesToCompressed,
  setCollectiveModel,
} from "../src/collectives.ts";
import { DeviceBuffer, Stream } from "../src/device.ts";
import type { DType } from "../src/dtype.ts";
import { makeDataset } from "../bench/data/synthetic.ts";
import { bf16ToF32, f32ToBf16, f32ToFp16, fp16ToF32 } from "../src/convert.ts";

const WIDTH: Record<string, number> = { bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const n = comm.size, rank = comm.rank;
const stream = Stream.create(comm.device);
const failures: string[] = [];
let checked = 0;
const notes: string[] = [];

// avg on 2 ranks, bf16/fp16 (docs/COLLECTIVES.md): the rank that starts an element's fold sends x·s
// rounded to the dtype, the other folds in its own y as y·s + p with one rounding. The step is not
// symmetric, so a tie can round differently depending on which rank folds last, and NCCL's ring picks
// that rank by its own chunk layout. A differing element passes only when the two results are exactly
// the two fold orders of the two ranks' inputs (one each way).
function avgFoldOrders(dtype: DType, a: number, b: number): [number, number] {
  const wide = (c: number) => (dtype === "bf16" ? bf16ToF32 : fp16ToF32)(Uint16Array.of(c))[0];
  const narrow = (x: number) => (dtype === "bf16" ? f32ToBf16 : f32ToFp16)(Float32Array.of(x))[0];
  const start = (c: number) => narrow(wide(c) * 0.5); // exact in f32, rounded once to the dtype
  const step = (own: number, p: number) => narrow(Math.fround(wide(own) * 0.5 + wide(p))); // as nccl/coll_reduce.h
  return [step(a, start(b)), step(b, start(a))];
}
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
          let wrong = 0, orderTies = 0;
          const shown: string[] = [];
          const peerData = kind === "allReduce" && n === 2
            ? makeDataset("gaussian", dtype, count * n, 77 + (1 - rank))
            : undefined;
          const orderOnly = peerData !== undefined && op === "avg" &&
            (dtype === "bf16" || dtype === "fp16") &&
            (a === "never" || b === "never");
          const code = (u: Uint8Array, k: number) => u[k * w] | (u[k * w + 1] << 8);
          for (let i = 0; i < x.length; i++) {
            if (x[i] === y[i]) continue;
            if (orderOnly) {
              const e = Math.floor(i / w);
              const [mineLast, peerLast] = avgFoldOrders(dtype, code(data, e), code(peerData, e));
              const xe = code(x, e), ye = code(y, e);
              if ((xe === mineLast && ye === peerLast) || (xe === peerLast && ye === mineLast)) {
                orderTies++;
                i = e * w + w - 1;
                continue;
              }
            }
            wrong++;
            // The first few differing elements of an all-reduce on 2 ranks, with both ranks' inputs
            // (the peer's data is regenerated from its seed), to tell rounding cases apart.
            const e = Math.floor(i / w);
            if (
              kind === "allReduce" && n === 2 && shown.length < 4 &&
              !shown.some((l) => l.startsWith(`#${e} `))
            ) {
              const peer = peerData ?? makeDataset("gaussian", dtype, count * n, 77 + (1 - rank));
              const hex = (u: Uint8Array, k: number) =>
                Array.from(u.subarray(k * w, k * w + w)).reverse().map((v) => v.toString(16).padStart(2, "0"))
                  .join("");
              shown.push(
                `#${e} mine=${hex(data, e)} peer=${hex(peer, e)} ${a}=${hex(x, e)} ${b}=${hex(y, e)}`,
              );
            }
          }
          if (orderTies) {
            notes.push(
              `${kind} ${dtype} ${op} count=${count}: ${a} vs ${b}: ${orderTies} elements differ only by which ` +
                `rank folds last (each equals one of the two fold orders; docs/COLLECTIVES.md)`,
            );
          }
          if (wrong) {
            const at: number[] = [];
            for (let i = 0; i < x.length && at.length < 24; i += w) {
              if (x.subarray(i, i + w).some((v, k) => v !== y[i + k])) at.push(i / w);
            }
            failures.push(
              `${kind} ${dtype} ${op} count=${count}: ${a} vs ${b}: ${wrong} bytes differ` +
                (shown.length ? ` [${shown.join("; ")}]` : "") + ` at elements ${at.join(",")}`,
            );
          }
        };
        cmp("always", "plainSchedule");
        if (kind !== "allToAll" && kind !== "reduce") cmp("always", "never");
        // The nonblocking twin (the call on a worker thread) gives the blocking call's bytes.
        if (dtype === "bf16" && count === 1_000_003 && op !== "max" && results.always) {
          recv.fill(0xab, stream);
          const o = { compress: "always" as const };
          try {
            if (kind === "allReduce") await allReduceAsync(comm, send, recv, count, dtype, op, stream, o);
            else if (kind === "reduceScatter") {
              await reduceScatterAsync(comm, send, recv, count, dtype, op, stream, o);
            } else if (kind === "allGather") await allGatherAsync(comm, send, recv, count, dtype, stream, o);
            else if (kind === "allToAll") await allToAllAsync(comm, send, recv, count, dtype, stream, o);
            else if (kind === "broadcast") {
              await broadcastAsync(comm, send, recv, count, dtype, 1 % n, stream, o);
            } else await reduceAsync(comm, send, recv, count, dtype, op, 0, stream, o);
            stream.synchronize();
            const got = recv.download(new Uint8Array(outBytes), stream);
            if (!(kind === "reduce" && rank !== 0)) {
              compare(`${kind} ${dtype} ${op} count=${count} async`, "always", "always", got, results.always);
            }
          } catch (e) {
            failures.push(`${kind} ${dtype} ${op} ${count} always (async): threw ${e}`);
          }
        }
      }
    }
  }
}
// Bit comparison of two results; NCCL's ring for n > 2 folds in its own order (1 and 2 ranks only: one
// rank folds nothing, every collective is a copy).
function compare(what: string, a: CompressMode, b: CompressMode, x?: Uint8Array, y?: Uint8Array) {
  if (!x || !y) return;
  if ((a === "never" || b === "never") && n > 2) return;
  checked++;
  let wrong = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) wrong++;
  if (wrong) failures.push(`${what}: ${a} vs ${b}: ${wrong} bytes differ`);
}

// The pipelined executor with many P2P chunks per exchange (256 KiB chunks: > 5 staging slots), and
// "auto" under a model of a slow link and a fast codec (so that it compresses), in place and not.
comm.configure({ chunkBytes: 256 << 10 });
setCollectiveModel(comm, { linkBps: 1e9, compressBps: 1e12, decompressBps: 1e12, stepSeconds: 1e-6 });
{
  const count = 3_000_017 * n; // odd: uneven all-reduce segments
  const dtype: DType = "bf16", w = 2;
  const big = DeviceBuffer.alloc(comm.device, count * n * w),
    out = DeviceBuffer.alloc(comm.device, count * n * w);
  const data = makeDataset("gaussian", dtype, count * n, 991 + rank);
  for (const kind of ["allReduce", "reduceScatter", "allGather"] as const) {
    for (const inPlace of [false, true]) {
      const per = kind === "allReduce" ? count : Math.floor(count / n);
      const outBytes = (kind === "allGather" ? per * n : per) * w;
      const results: Partial<Record<CompressMode, Uint8Array>> = {};
      const autoBytes = (kind === "reduceScatter" ? per * n : kind === "allGather" ? per * n : per) * w;
      // Under the model, auto compresses all-gather; reductions stay plain unless
      // UZIP_COLL_AUTO_REDUCTIONS=1 (nccl/coll_api.cc says why).
      const autoZip = resolvesToCompressed(comm, kind, autoBytes, { compress: "auto" }, dtype);
      const wantZip = kind === "allGather" || Deno.env.get("UZIP_COLL_AUTO_REDUCTIONS") === "1";
      if (autoZip !== wantZip && n === 2) {
        failures.push(
          `${kind}: auto resolves to ${autoZip ? "compressed" : "plain"} under a slow-link model`,
        );
      }
      for (const mode of ["never", "plainSchedule", "always", "auto"] as CompressMode[]) {
        big.upload(data, stream);
        out.fill(0xab, stream);
        // In place: all-reduce recv = send; reduce-scatter recv = send + rank·per; all-gather send =
        // recv + rank·per (NCCL's layouts).
        const o = { compress: mode };
        const at = (b: DeviceBuffer, elems: number) => b.ptr + BigInt(elems * w);
        try {
          if (kind === "allReduce") allReduce(comm, big, inPlace ? big : out, per, dtype, "sum", stream, o);
          else if (kind === "reduceScatter") {
            reduceScatter(comm, big, inPlace ? at(big, rank * per) : out, per, dtype, "sum", stream, o);
          } else {
            if (inPlace) out.upload(data.subarray(0, per * w), stream, rank * per * w);
            allGather(comm, inPlace ? at(out, rank * per) : big, out, per, dtype, stream, o);
          }
        } catch (e) {
          failures.push(`pipelined ${kind} inPlace=${inPlace} ${mode}: threw ${e}`);
          continue;
        }
        stream.synchronize();
        const src = inPlace && kind !== "allGather" ? big : out;
        const off = inPlace && kind === "reduceScatter" ? rank * per * w : 0;
        results[mode] = src.download(new Uint8Array(outBytes), stream, off);
      }
      const what = `pipelined ${kind} bf16 count=${per}${inPlace ? " in-place" : ""}`;
      compare(what, "always", "plainSchedule", results.always, results.plainSchedule);
      compare(what, "always", "never", results.always, results.never);
      compare(what, "auto", "never", results.auto, results.never);
    }
  }
  big.free();
  out.free();
}
setCollectiveModel(comm, null);
comm.configure({ chunkBytes: 32 << 20 });

console.log(`rank ${rank}: ${checked} comparisons, ${failures.length} failures`);
for (const note of notes) console.log(`NOTE ${note}`);
for (const f of failures.slice(0, 20)) console.log(`FAIL ${f}`);
send.free();
recv.free();
stream.destroy();
if (failures.length) Deno.exit(1);
