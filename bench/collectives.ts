// Collectives benchmark in the style of nccl-tests: for each collective and size, plain NCCL
// ("never"; reduce and all-to-all: the plain schedule over NCCL send/recv, NCCL's table has neither), the
// compressed path ("always": the pipelined executor), the auto policy ("auto") and optionally the same schedule uncompressed ("plainSchedule")
// in the same run, with size, time, algbw, busbw and #wrong.
// Run on 2 GPUs through the launcher:
//   deno task launch -n 2 bench/collectives.ts [--colls allReduce,allGather,reduceScatter]
//     [--sizes 64KiB,256MiB] [--dtype bf16] [--modes never,always,auto] [--out DIR] [--tag T]
//     [--calibrate 1|0]
// Auto is decided from a model measured first (calibrateCollectives: P2P calibration, agreed by all
// ranks; --calibrate 0 skips it, and auto is then plain NCCL).
// Method: CUDA events around batches of back-to-back calls (per-call time = elapsed / batch), the modes
// taking turns batch by batch, each batch started by a one-element all-reduce that aligns the ranks;
// median over the batches after one warm-up round; the slower rank's median is reported. #wrong: elements of rank 0's output that differ from plain NCCL's output
// in the same run (all-gather: from the known inputs); NCCL's own row is checked the same way for
// all-gather and is the reference for the reductions. Rank 0 writes JSON and one SVG per collective.
import { Communicator, ncclVersion } from "../src/comm.ts";
import {
  allGather,
  allReduce,
  allToAll,
  broadcast,
  calibrateCollectives,
  type CollectiveKind,
  type CompressMode,
  reduce,
  reduceScatter,
  resolvesToCompressed,
} from "../src/collectives.ts";
import { CudaEvent, DeviceBuffer, deviceInfo, Stream } from "../src/device.ts";
import type { DType } from "../src/dtype.ts";
import { makeDataset } from "./data/synthetic.ts";
import { formatBytes, median, parseBytes } from "./stats.ts";
import { lineChartSvg } from "./svg.ts";

const WIDTH: Record<string, number> = { bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
const args = new Map<string, string>();
for (let i = 0; i < Deno.args.length; i += 2) args.set(Deno.args[i].replace(/^--/, ""), Deno.args[i + 1]);
const list = (k: string, d: string) => (args.get(k) ?? d).split(",").filter((s) => s.length > 0);
const sizes = (() => {
  const s = list("sizes", "64KiB,256MiB").map(parseBytes);
  if (s.length !== 2) return s;
  const out: number[] = [];
  for (let b = s[0]; b <= s[1]; b *= 4) out.push(b);
  return out;
})();
const colls = list("colls", "allReduce,allGather,reduceScatter") as CollectiveKind[];
const dtype = (args.get("dtype") ?? "bf16") as DType;
const modes = list("modes", "never,always,auto") as CompressMode[];
const outDir = args.get("out") ?? "bench/out";
const p2pOff = Deno.env.get("NCCL_P2P_DISABLE") === "1";
const tag = args.get("tag") ?? (p2pOff ? "p2p_disabled" : "nvlink");
const w = WIDTH[dtype];

using comm = await Communicator.fromLaunch({ timeoutMs: 120000 });
const n = comm.size, rank = comm.rank;
const stream = Stream.create(comm.device);
const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
const log = (s: string) => rank === 0 && console.log(s);
const scratch = DeviceBuffer.alloc(comm.device, 16);
const model = args.get("calibrate") === "0" ? null : await calibrateCollectives(comm, { stream });
log(
  model
    ? `# auto model (measured, agreed by all ranks): link ${
      (model.linkBps / 1e9).toFixed(1)
    } GB/s, compress ${(model.compressBps / 1e9).toFixed(0)} GB/s, decompress ${
      (model.decompressBps / 1e9).toFixed(0)
    } GB/s, step ${((model.stepSeconds ?? 0) * 1e6).toFixed(1)} us, NCCL algbw all-reduce ${
      ((model.allReduceBps ?? 0) / 1e9).toFixed(1)
    } GB/s, all-gather ${((model.allGatherBps ?? 0) / 1e9).toFixed(1)} GB/s`
    : "# auto model: none (auto = plain NCCL)",
);

// Buffers of the largest size: "size" is nccl-tests' size (all-reduce: the buffer; all-gather: the
// gathered output; reduce-scatter: the input).
const maxBytes = Math.max(...sizes);
const sendBuf = DeviceBuffer.alloc(comm.device, maxBytes);
const recvBuf = DeviceBuffer.alloc(comm.device, maxBytes);
const tile = makeDataset("gaussian", dtype, Math.min(16 << 20, maxBytes) / w, 1000 + rank);
for (let off = 0; off < maxBytes; off += tile.length) {
  sendBuf.upload(tile.subarray(0, Math.min(tile.length, maxBytes - off)), stream, off);
}
const tiles = Array.from(
  { length: n },
  (_, r) => makeDataset("gaussian", dtype, Math.min(16 << 20, maxBytes) / w, 1000 + r),
);

function busFactor(kind: CollectiveKind): number {
  if (kind === "allReduce") return (2 * (n - 1)) / n;
  if (kind === "broadcast" || kind === "reduce") return 1;
  return (n - 1) / n;
}

function runOnce(kind: CollectiveKind, bytes: number, mode: CompressMode) {
  const o = { compress: mode };
  if (kind === "allReduce") allReduce(comm, sendBuf, recvBuf, bytes / w, dtype, "sum", stream, o);
  else if (kind === "allGather") allGather(comm, sendBuf, recvBuf, bytes / w / n, dtype, stream, o);
  else if (kind === "reduceScatter") {
    reduceScatter(comm, sendBuf, recvBuf, bytes / w / n, dtype, "sum", stream, o);
  } else if (kind === "allToAll") allToAll(comm, sendBuf, recvBuf, bytes / w / n, dtype, stream, o);
  else if (kind === "reduce") reduce(comm, sendBuf, recvBuf, bytes / w, dtype, "sum", 0, stream, o);
  else if (kind === "broadcast") broadcast(comm, sendBuf, recvBuf, bytes / w, dtype, 0, stream, o);
  else throw new Error(`unknown collective ${kind}`);
}
function outBytes(kind: CollectiveKind, bytes: number): number {
  return kind === "reduceScatter" ? bytes / n : bytes;
}

// Elements (of width w) that differ between two byte arrays.
function wrongElems(a: Uint8Array, b: Uint8Array): number {
  let wrong = 0;
  if ((w === 2 || w === 4) && a.byteOffset % w === 0 && b.byteOffset % w === 0) {
    const A = w === 2
      ? new Uint16Array(a.buffer, a.byteOffset, a.length / 2)
      : new Uint32Array(a.buffer, a.byteOffset, a.length / 4);
    const B = w === 2
      ? new Uint16Array(b.buffer, b.byteOffset, b.length / 2)
      : new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
    for (let i = 0; i < A.length; i++) if (A[i] !== B[i]) wrong++;
    return wrong;
  }
  for (let i = 0; i < a.length; i += w) {
    for (let k = 0; k < w; k++) {
      if (a[i + k] !== b[i + k]) {
        wrong++;
        break;
      }
    }
  }
  return wrong;
}
function expectedAllGather(bytes: number): Uint8Array {
  const per = bytes / n, out = new Uint8Array(bytes);
  for (let r = 0; r < n; r++) {
    for (let off = 0; off < per; off += tiles[r].length) {
      out.set(tiles[r].subarray(0, Math.min(tiles[r].length, per - off)), r * per + off);
    }
  }
  return out;
}

interface Row {
  coll: string;
  dtype: string;
  bytes: number;
  mode: string;
  compressed: boolean;
  medianMs: number;
  algbwGBs: number;
  busbwGBs: number;
  wrong: number;
  timesMs: number[];
}
const rows: Row[] = [];
log(`# ${n} ranks, ${dtype}, ${tag}; size = nccl-tests size; time = median ms; bw in GB/s`);
log(
  `${"coll".padEnd(14)}${"size".padStart(10)} ${"mode".padEnd(14)}path ${"time".padStart(9)} ${
    "algbw".padStart(7)
  } ${"busbw".padStart(7)} #wrong  vs NCCL`,
);
for (const kind of colls) {
  for (const bytes of sizes) {
    if (bytes % (n * w * 16) !== 0) continue;
    let reference: Uint8Array | null = kind === "allGather" ? expectedAllGather(bytes) : null;
    const base: Record<string, number> = {};
    // Exactness first: one call per mode, its output compared with plain NCCL's.
    const wrongBy: Record<string, number> = {};
    for (const mode of modes) {
      recvBuf.fill(0xab, stream);
      runOnce(kind, bytes, mode);
      stream.synchronize();
      const got = recvBuf.download(new Uint8Array(outBytes(kind, bytes)), stream);
      wrongBy[mode] = 0;
      if (reference === null && mode === "never") reference = got;
      else if (reference !== null) wrongBy[mode] = wrongElems(got, reference);
    }
    // nccl-tests style: each sample times a batch of `batch` back-to-back calls between two events
    // (per-call time = elapsed / batch), so host jitter of one call does not dominate small sizes. The
    // modes take turns batch by batch (after one warm-up round), so that drift (clocks, NCCL's state after
    // a size change) hits every mode alike: run one after the other, two identical plain NCCL calls
    // measured 0.90-1.77x of each other over NVLink (bench/results/h200x2-2026-11-30T2300-session6).
    const batch = Math.min(20, Math.max(1, Math.ceil((64 << 20) / bytes)));
    const samples = Math.min(15, Math.max(5, Math.ceil((2 << 30) / (bytes * batch))));
    const timesBy: Record<string, number[]> = {};
    for (const mode of modes) timesBy[mode] = [];
    for (let i = 0; i < samples + 1; i++) {
      for (const mode of modes) {
        // Both ranks start the batch together: t0 follows a one-element plain all-reduce on the stream,
        // so a rank whose host arrived first does not count the wait for the other in its time.
        allReduce(comm, scratch, scratch, 1, "fp32", "max", stream, { compress: "never" });
        t0.record(stream);
        for (let k = 0; k < batch; k++) runOnce(kind, bytes, mode);
        t1.record(stream);
        await t1.synchronizeAsync();
        if (i >= 1) timesBy[mode].push(CudaEvent.elapsedMs(t0, t1) / batch);
      }
    }
    stream.synchronize();
    for (const mode of modes) {
      const times = timesBy[mode];
      // The slower rank's median is the collective's time.
      const med = median(times);
      const medAll = await maxAcrossRanks(med);
      const wrongAll = await maxAcrossRanks(wrongBy[mode]);
      const compressed = resolvesToCompressed(comm, kind, bytes, { compress: mode }, dtype) ||
        mode === "always";
      base[mode] = medAll;
      const algbw = bytes / medAll / 1e6;
      rows.push({
        coll: kind,
        dtype,
        bytes,
        mode,
        compressed: mode === "plainSchedule" ? false : compressed,
        medianMs: medAll,
        algbwGBs: algbw,
        busbwGBs: algbw * busFactor(kind),
        wrong: wrongAll,
        timesMs: times,
      });
      log(
        `${kind.padEnd(14)}${formatBytes(bytes).padStart(10)} ${mode.padEnd(14)}${
          mode === "plainSchedule" ? "sched" : compressed ? "zip  " : "nccl "
        }${medAll.toFixed(3).padStart(9)} ${algbw.toFixed(1).padStart(7)} ${
          (algbw * busFactor(kind)).toFixed(1).padStart(7)
        } ${String(wrongAll).padStart(6)}  ${base.never ? "x" + (base.never / medAll).toFixed(2) : ""}`,
      );
    }
  }
}

// Max of a number over the ranks, through a tiny all-reduce (plain NCCL) of fp32.
async function maxAcrossRanks(x: number): Promise<number> {
  const b = scratch;
  b.upload(new Float32Array([x]), stream);
  allReduce(comm, b, b, 1, "fp32", "max", stream, { compress: "never" });
  const out = new Float32Array(b.download(new Uint8Array(4), stream).buffer);
  await Promise.resolve();
  return out[0];
}

if (rank === 0) {
  const info = deviceInfo(comm.device);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (k.startsWith("NCCL_") || k.startsWith("UZIP_")) env[k] = v;
  }
  const report = {
    benchmark: "collectives",
    tag,
    ranks: n,
    gpu: info.name,
    ncclVersion: ncclVersion(),
    commit: args.get("commit") ?? Deno.env.get("UZIP_GIT_COMMIT") ?? "",
    command: `deno task launch -n ${n} bench/collectives.ts ${Deno.args.join(" ")}`,
    env,
    autoModel: model,
    method:
      "median over batches of per-call CUDA-event time (batch of back-to-back calls; modes take turns batch by batch), max over ranks; #wrong vs plain NCCL",
    rows,
  };
  Deno.mkdirSync(outDir, { recursive: true });
  Deno.writeTextFileSync(`${outDir}/collectives_${tag}.json`, JSON.stringify(report, null, 1));
  for (const kind of colls) {
    const series = modes.map((mode) => ({
      name: mode === "never" ? "plain NCCL" : mode,
      dashed: mode === "never",
      points: rows.filter((r) => r.coll === kind && r.mode === mode).map((r) => ({
        x: r.bytes,
        y: r.algbwGBs,
      })),
    }));
    Deno.writeTextFileSync(
      `${outDir}/collectives_${tag}_${kind}.svg`,
      lineChartSvg({
        title: `${kind}, ${n} ranks, ${
          tag === "nvlink" ? "NVLink" : "NCCL_P2P_DISABLE=1"
        }, ${dtype} gaussian`,
        subtitle: `${info.name}, NCCL ${report.ncclVersion}; algbw (nccl-tests size / time)`,
        xLabel: "size",
        yLabel: "algbw GB/s",
        series,
      }),
    );
  }
  const bad = rows.filter((r) => r.wrong > 0);
  console.log(
    `wrote ${outDir}/collectives_${tag}.json; ${rows.length} rows, ${bad.length} with wrong elements`,
  );
  if (bad.length > 0) Deno.exitCode = 1;
}
sendBuf.free();
recvBuf.free();
stream.destroy();
