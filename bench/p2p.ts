// P2P benchmark: plain NCCL send/recv vs compressed ("always") vs the auto policy, in the same run.
// Run on 2 GPUs through the launcher:
//   deno task launch -n 2 bench/p2p.ts [--sizes 64KiB,1GiB] [--dtypes bf16,fp16,fp32,fp8e4m3]
//     [--datasets gaussian,uniform] [--modes never,always,auto] [--out DIR] [--tag NAME] [--commit SHA]
// Rank 0 sends, rank 1 receives. Each measurement: a plain 4-byte barrier, then CUDA events on rank 1's
// stream around one transfer (end = data decoded in place); median of the timed iterations after 2
// warm-ups. Every configuration's last delivery is compared byte for byte with the data sent (the
// receive buffer is poisoned before each configuration). Rank 1 writes JSON and SVG charts.
import { Communicator, ncclVersion } from "../src/comm.ts";
import { CudaEvent, DeviceBuffer, deviceInfo, Stream } from "../src/device.ts";
import type { DType } from "../src/dtype.ts";
import { calibrate, type CompressMode, defaultPolicy, p2p } from "../src/p2p.ts";
import { makeDataset } from "./data/synthetic.ts";
import { formatBytes, median, parseBytes } from "./stats.ts";
import { lineChartSvg } from "./svg.ts";

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
const datasets = list("datasets", "gaussian,uniform") as ("gaussian" | "uniform")[];
const modes = list("modes", "never,always,auto") as CompressMode[];
const outDir = args.get("out") ?? "bench/out";
const p2pOff = Deno.env.get("NCCL_P2P_DISABLE") === "1";
const tag = args.get("tag") ?? (p2pOff ? "p2p_disabled" : "nvlink");
const TILE = 16 << 20;

using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const peer = 1 - comm.rank;
const stream = Stream.create(comm.device);
const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
const bar = [DeviceBuffer.alloc(comm.device, 16), DeviceBuffer.alloc(comm.device, 16)];
const log = (s: string) => comm.rank === 1 && console.log(s);

async function barrier() {
  await p2p(comm, [
    { kind: "send", buffer: bar[0], dtype: "bytes", peer, count: 4 },
    { kind: "recv", buffer: bar[1], dtype: "bytes", peer, count: 4 },
  ], { compress: "never", stream });
}

const model = await calibrate(comm, peer, { stream });
log(
  `calibration: link ${(model.linkBps / 1e9).toFixed(1)} GB/s, codec compress ${
    (model.compressBps / 1e9).toFixed(0)
  } GB/s, decompress ${(model.decompressBps / 1e9).toFixed(0)} GB/s`,
);

interface Row {
  dtype: string;
  dataset: string;
  bytes: number;
  mode: string;
  compressed: boolean;
  medianMs: number;
  gbps: number;
  timesMs: number[];
  exact: boolean;
}
const rows: Row[] = [];
const maxBytes = Math.max(...sizes);
const buf = DeviceBuffer.alloc(comm.device, maxBytes);

function writeReport(): number {
  if (comm.rank !== 1) return 0;
  const info = deviceInfo(comm.device);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (k.startsWith("NCCL_") || k.startsWith("UZIP_")) env[k] = v;
  }
  const report = {
    benchmark: "p2p",
    tag,
    gpu: info.name,
    driverVersion: info.driverVersion,
    runtimeVersion: info.runtimeVersion,
    ncclVersion: ncclVersion(),
    commit: args.get("commit") ?? "",
    command: `deno task launch -n 2 bench/p2p.ts ${Deno.args.join(" ")}`,
    env,
    method: "median of CUDA-event timings on the receiver after 2 warm-ups, 4-byte barrier before each",
    calibration: model,
    policy: { margin: defaultPolicy(comm).margin, minBytes: defaultPolicy(comm).minBytes },
    rows,
  };
  Deno.mkdirSync(outDir, { recursive: true });
  Deno.writeTextFileSync(`${outDir}/p2p_${tag}.json`, JSON.stringify(report, null, 1));
  for (const dataset of datasets) {
    const series = dtypes.flatMap((dtype) =>
      modes.map((mode) => ({
        name: `${dtype} ${mode === "never" ? "plain NCCL" : mode}`,
        dashed: mode === "never",
        points: rows.filter((r) => r.dtype === dtype && r.dataset === dataset && r.mode === mode)
          .map((r) => ({ x: r.bytes, y: r.gbps })),
      }))
    );
    Deno.writeTextFileSync(
      `${outDir}/p2p_${tag}_${dataset}.svg`,
      lineChartSvg({
        title: `P2P send/recv, ${tag === "nvlink" ? "NVLink" : "NCCL_P2P_DISABLE=1"}, ${dataset} data`,
        subtitle: `${info.name}, NCCL ${report.ncclVersion}; receiver-side GB/s of raw bytes`,
        xLabel: "message size",
        yLabel: "GB/s",
        series,
      }),
    );
  }
  const bad = rows.filter((r) => !r.exact);
  console.log(`wrote ${outDir}/p2p_${tag}.json; ${rows.length} rows, ${bad.length} mismatches`);
  return bad.length;
}

for (const dtype of dtypes) {
  for (const dataset of datasets) {
    const w = WIDTH[dtype];
    const tile = makeDataset(dataset, dtype, Math.min(TILE, maxBytes) / w, 42);
    if (comm.rank === 0) {
      for (let off = 0; off < maxBytes; off += tile.length) {
        buf.upload(tile.subarray(0, Math.min(tile.length, maxBytes - off)), stream, off);
      }
    }
    const tile32 = new Int32Array(tile.buffer, tile.byteOffset, tile.length >> 2);
    for (const bytes of sizes) {
      const base: Record<string, number> = {};
      for (const mode of modes) {
        if (comm.rank === 1) buf.fill(0xab, stream);
        const count = bytes / w;
        const op = {
          kind: comm.rank === 0 ? "send" as const : "recv" as const,
          buffer: buf,
          dtype,
          peer,
          count,
        };
        const iters = Math.min(30, Math.max(5, Math.ceil((512 << 20) / bytes)));
        const times: number[] = [];
        let compressed = false;
        for (let i = 0; i < iters + 2; i++) {
          await barrier();
          t0.record(stream);
          const r = await p2p(comm, [op], { compress: mode, stream });
          t1.record(stream);
          await t1.synchronizeAsync();
          compressed = r.compressed[0];
          if (i >= 2) times.push(CudaEvent.elapsedMs(t0, t1));
        }
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
        const med = median(times);
        base[mode] = med;
        rows.push({
          dtype,
          dataset,
          bytes,
          mode,
          compressed,
          medianMs: med,
          gbps: bytes / med / 1e6,
          timesMs: times,
          exact,
        });
        log(
          `${dtype.padEnd(8)} ${dataset.padEnd(9)} ${formatBytes(bytes).padStart(9)} ${mode.padEnd(6)} ${
            compressed ? "zip " : "raw "
          } ${med.toFixed(3).padStart(9)} ms ${(bytes / med / 1e6).toFixed(1).padStart(7)} GB/s` +
            (mode !== "never" && base.never ? `  x${(base.never / med).toFixed(2)} vs plain` : "") +
            (exact ? "" : "  MISMATCH"),
        );
      }
    }
    writeReport(); // partial results survive a run cut short
  }
}

if (writeReport() > 0) Deno.exit(1);
buf.free();
stream.destroy();
