// The codec benchmark CLI: compression and decompression throughput (uncompressed bytes per second)
// per size, dtype and data set, with a plain copy of the same size measured in the same run as the
// yardstick. Prints a table, writes JSON (environment + raw per-call timings) and SVG charts.
//
//   deno run -A bench/codec.ts                        # GPU 0, the full sweep
//   deno run -A bench/codec.ts --sizes 1M,256M --dtypes bf16 --data gaussian --sms 0,16
//   deno run -A bench/codec.ts --cpu --json bench/out/cpu.json --svg bench/out/cpu.svg
//
// See --help for every option. GPU method: bench/codec_gpu.ts; CPU method: bench/codec_cpu.ts.
//
// On a GPU machine without node_modules (real weights) or .git (commit): carry the .onnx models and
// set UZIP_WEIGHTS_DIR, set UZIP_GIT_COMMIT, and UZIP_LIB to the built libuzip.so, e.g.
//   UZIP_LIB=$PWD/.carry/libuzip.so UZIP_WEIGHTS_DIR=$PWD/.carry/weights UZIP_GIT_COMMIT=<sha> \
//     deno run -A bench/codec.ts --json $OUT/codec.json --svg $OUT/codec.svg

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { cudaDeviceCount } from "../src/device.ts";
import { measureCpu } from "./codec_cpu.ts";
import {
  BENCH_DATA,
  BENCH_DTYPES,
  type BenchData,
  type BenchDtype,
  type DataPattern,
  makePattern,
  tile,
  widthOf,
} from "./codec_data.ts";
import { GpuCodecBench } from "./codec_gpu.ts";
import { environment, makeRow, type ResultRow, resultTable, writeCharts } from "./codec_report.ts";
import { formatBytes, parseBytes } from "./stats.ts";

const USAGE = `usage: deno run -A bench/codec.ts [options]

  --sizes LIST    sizes, comma-separated (64K, 16MiB, 4G), or A..B for every power of two between
                  (GPU default 64K,256K,1M,4M,16M,64M,256M,1G,4G; CPU default 64K,1M,16M)
  --dtypes LIST   ${BENCH_DTYPES.join(",")} (default bf16,fp16,fp32,fp8; fp8 = fp8e4m3)
  --data LIST     ${BENCH_DATA.join(",")} (default: all)
  --sms LIST      GPU codec SM limits, 0 or "all" = the whole chip (default 0,8,16,32)
  --repeat N      timed calls (GPU, default 20) or timed samples (CPU, default 10)
  --warmup N      untimed calls first (GPU default 3, CPU default 2)
  --period SIZE   largest period of synthetic data; larger tensors repeat it (default 16M)
  --split         the split layout (remainder plane raw up front, as P2P sends it; small bf16, fp16 and fp32
                  tensors then take the library's lean default coding) instead of the default layout
  --device N      GPU index (default 0)
  --json PATH     write results, environment and raw timings as JSON
  --svg PATH      write charts (PATH, or PATH-<dtype>[-<n>sm].svg when there are several)
  --cpu           measure the CPU codec instead of the GPU
  --cpu-threads N the CPU codec's threads (default 1; 0 = the library's choice: every hardware thread)
  --help          this text
`;

function fail(message: string): never {
  console.error(`error: ${message}\n\n${USAGE}`);
  Deno.exit(2);
}

function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}

/** "64K,1M" or "64K..4G" (every power of two from A to B). */
export function parseSizes(text: string): number[] {
  const out: number[] = [];
  for (const item of list(text)) {
    const range = item.split("..");
    if (range.length === 2) {
      const [a, b] = range.map(parseBytes);
      if (a > b) throw new RangeError(`empty size range ${item}`);
      for (let s = a; s <= b; s *= 2) out.push(s);
    } else {
      out.push(parseBytes(item));
    }
  }
  return out;
}

function parseList<T extends string>(text: string, allowed: readonly T[], what: string): T[] {
  const items = list(text);
  for (const it of items) {
    if (!(allowed as readonly string[]).includes(it)) {
      fail(`unknown ${what} "${it}" (one of ${allowed.join(",")})`);
    }
  }
  return items as T[];
}

function parseCount(text: string | undefined, fallback: number, what: string, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) fail(`--${what} must be an integer >= ${min}, got "${text}"`);
  return n;
}

interface Options {
  cpu: boolean;
  cpuThreads: number;
  sizes: number[];
  dtypes: BenchDtype[];
  datas: BenchData[];
  sms: number[];
  repeat: number;
  warmup: number;
  period: number;
  /** The split layout (CompressOptions.split) instead of the default one. */
  split: boolean;
  device: number;
  json?: string;
  svg?: string;
}

/** Parses the command line; exits with a usage message on a bad option. */
function parseOptions(args: string[]): Options {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        sizes: { type: "string" },
        dtypes: { type: "string", default: "bf16,fp16,fp32,fp8" },
        data: { type: "string", default: BENCH_DATA.join(",") },
        sms: { type: "string", default: "0,8,16,32" },
        repeat: { type: "string" },
        warmup: { type: "string" },
        period: { type: "string", default: "16M" },
        device: { type: "string", default: "0" },
        json: { type: "string" },
        svg: { type: "string" },
        cpu: { type: "boolean", default: false },
        split: { type: "boolean", default: false },
        "cpu-threads": { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    Deno.exit(0);
  }
  const cpu = values.cpu;
  let sizes: number[];
  let period: number;
  try {
    sizes = parseSizes(values.sizes ?? (cpu ? "64K,1M,16M" : "64K,256K,1M,4M,16M,64M,256M,1G,4G"));
    period = parseBytes(values.period);
  } catch (e) {
    fail((e as Error).message);
  }
  const dtypes = parseList<BenchDtype>(values.dtypes, BENCH_DTYPES, "dtype");
  const datas = parseList<BenchData>(values.data, BENCH_DATA, "data set");
  const sms = list(values.sms).map((s) => {
    const n = s === "all" || s === "full" ? 0 : Number(s);
    if (!Number.isInteger(n) || n < 0) fail(`bad --sms entry "${s}"`);
    return n;
  });
  for (const d of dtypes) {
    for (const s of sizes) if (s % widthOf(d) !== 0) fail(`size ${s} is not a whole number of ${d} elements`);
  }
  if (sizes.length === 0 || dtypes.length === 0 || datas.length === 0 || sms.length === 0) {
    fail("--sizes, --dtypes, --data and --sms must not be empty");
  }
  return {
    cpu,
    cpuThreads: parseCount(values["cpu-threads"], 1, "cpu-threads", 0),
    sizes,
    dtypes,
    datas,
    sms,
    repeat: parseCount(values.repeat, cpu ? 10 : 20, "repeat", 1),
    warmup: parseCount(values.warmup, cpu ? 2 : 3, "warmup", cpu ? 1 : 0),
    period,
    split: values.split,
    device: parseCount(values.device, 0, "device", 0),
    json: values.json,
    svg: values.svg,
  };
}

type ErrorEntry = { size: number; dtype: string; data: string; sms: number | null; error: string };

// SIGINT/SIGTERM (e.g. from `timeout`) stop the sweep after the current size; what was measured is
// still written, marked partial. The loops yield to the event loop between sizes so the signal is seen.
let stop: string | null = null;
async function stopRequested(): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return stop !== null;
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  try {
    Deno.addSignalListener(sig, () => {
      if (stop === null) console.error(`${sig}: stopping after the current size, writing partial results`);
      stop = sig;
    });
  } catch {
    // signals not supported here: no early stop
  }
}

/** Measures the CPU codec at every size of one pattern. */
async function runCpu(
  o: Options,
  pattern: DataPattern,
  rows: ResultRow[],
  errors: ErrorEntry[],
  flush: () => void,
): Promise<void> {
  const { dtype, data } = pattern;
  for (const size of o.sizes) {
    if (await stopRequested()) return;
    const where = `${formatBytes(size)} ${dtype} ${data}`;
    try {
      const t = measureCpu(tile(pattern.bytes, size), dtype, {
        repeat: o.repeat,
        warmup: o.warmup,
        threads: o.cpuThreads,
        split: o.split,
      });
      const row = makeRow({
        mode: "cpu",
        size,
        dtype,
        data,
        sms: null,
        compressedBytes: t.compressedBytes,
        ratio: t.ratio,
        verified: { roundTrip: t.verified },
        timingsMs: { copy: t.copyMs, compress: t.compressMs, decompress: t.decompressMs },
        details: { callsPerSample: t.callsPerSample },
      });
      rows.push(row);
      const b = row.bytesPerSecond;
      console.error(
        `${where}: ratio ${row.ratio.toFixed(3)}, compress ${(b.compress / 1e6).toFixed(0)} MB/s, ` +
          `decompress ${(b.decompress / 1e6).toFixed(0)} MB/s, memcpy ${(b.copy / 1e9).toFixed(1)} GB/s`,
      );
    } catch (e) {
      console.error(`ERROR ${where}: ${(e as Error).message}`);
      errors.push({ size, dtype, data, sms: null, error: (e as Error).message });
    }
    flush();
  }
}

/** Measures the GPU codec at every size and SM limit of one pattern. */
async function runGpu(
  o: Options,
  gpu: GpuCodecBench,
  pattern: DataPattern,
  rows: ResultRow[],
  errors: ErrorEntry[],
  flush: () => void,
): Promise<void> {
  const { dtype, data } = pattern;
  for (const size of o.sizes) {
    if (await stopRequested()) return;
    const need = 3 * size + 2 * (256 << 20);
    if (need > 0.9 * gpu.info.totalMem) {
      console.error(`SKIP ${formatBytes(size)}: needs about ${formatBytes(need)} of device memory`);
      errors.push({ size, dtype, data, sms: null, error: "does not fit in device memory" });
      continue;
    }
    let prepared;
    try {
      prepared = gpu.prepare(pattern, size);
    } catch (e) {
      console.error(`ERROR ${formatBytes(size)} ${dtype} ${data} (prepare): ${(e as Error).message}`);
      errors.push({ size, dtype, data, sms: null, error: (e as Error).message });
      continue;
    }
    try {
      for (const [k, sms] of o.sms.entries()) {
        const where = `${formatBytes(size)} ${dtype} ${data} sms=${sms || "all"}`;
        try {
          const t = gpu.measure(prepared, sms, o.repeat, o.warmup, k === 0);
          const row = makeRow({
            mode: "gpu",
            size,
            dtype,
            data,
            sms,
            compressedBytes: t.compressedBytes,
            ratio: t.ratio,
            verified: t.verified,
            timingsMs: { copy: t.copyMs, compress: t.compressMs, decompress: t.decompressMs },
            details: {
              slots: t.slots,
              fillerMs: t.fillerMs,
              enqueueMs: t.enqueueMs,
              queuedAhead: t.queuedAhead,
            },
          });
          rows.push(row);
          const b = row.bytesPerSecond;
          const bad = Object.entries(t.verified).filter(([, v]) => v === false).map(([name]) => name);
          console.error(
            `${where}: ratio ${row.ratio.toFixed(3)}, compress ${(b.compress / 1e12).toFixed(3)} TB/s, ` +
              `decompress ${(b.decompress / 1e12).toFixed(3)} TB/s, copy ${(b.copy / 1e12).toFixed(3)} TB/s` +
              (bad.length ? `  VERIFY FAILED: ${bad.join(",")}` : ""),
          );
        } catch (e) {
          console.error(`ERROR ${where}: ${(e as Error).message}`);
          errors.push({ size, dtype, data, sms, error: (e as Error).message });
        }
      }
    } finally {
      gpu.release(prepared);
    }
    flush();
  }
}

async function main(): Promise<number> {
  const o = parseOptions(Deno.args);
  let gpu: GpuCodecBench | null = null;
  if (!o.cpu) {
    const n = cudaDeviceCount();
    if (n === 0) {
      console.error("no CUDA device: the GPU benchmark cannot run here (use --cpu for the CPU codec).");
      return 3;
    }
    if (o.device >= n) fail(`--device ${o.device} but there are ${n} devices`);
    gpu = new GpuCodecBench(o.device, { split: o.split });
    const i = gpu.info;
    const limits = o.sms.map((s) => (s === 0 ? i.smCount : Math.min(s, i.smCount)));
    console.error(
      `GPU ${o.device}: ${i.name}, ${i.smCount} SMs, ${formatBytes(i.totalMem)}, L2 ${
        formatBytes(i.l2Bytes)
      }; ` +
        `SM limits ${limits.join(",")}; ${
          o.split ? "split" : "default"
        } layout; repeat ${o.repeat}, warm-up ${o.warmup}`,
    );
  } else {
    const threads = o.cpuThreads === 1
      ? "one thread"
      : o.cpuThreads === 0
      ? "the library's threads"
      : `${o.cpuThreads} threads`;
    console.error(
      `CPU codec, ${threads}; ${
        o.split ? "split" : "default"
      } layout; repeat ${o.repeat}, warm-up ${o.warmup}`,
    );
  }
  const env = await environment(gpu?.info ?? null);

  const rows: ResultRow[] = [];
  const errors: ErrorEntry[] = [];
  const patterns: Record<string, string> = {};
  const maxSize = Math.max(...o.sizes);
  // JSON and charts are rewritten after every size, so a run cut short still leaves its results.
  const writeOutputs = (final: boolean) => {
    if (o.json) {
      const doc = {
        benchmark: "@uccl/zip codec",
        mode: o.cpu ? "cpu" : "gpu",
        partial: !final || stop !== null,
        environment: env,
        method: o.cpu
          ? `C codec via FFI on ${
            o.cpuThreads === 1 ? "one thread" : `cpuThreads ${o.cpuThreads} (0: the library's choice)`
          }, preallocated buffers, performance.now() around batches of ` +
            "calls (>= 20 ms a sample), median of samples; memcpy = Uint8Array.set of the same size"
          : "CUDA events around each call, calls queued ahead of the GPU behind a filler of copies so " +
            "launch cost is not timed, median of calls; inputs rotate among slots below 128 MiB so L2 " +
            "is not what is measured; copy = cudaMemcpyAsync device to device of the same size, whole chip",
        options: { ...o, sms: o.cpu ? null : o.sms },
        patterns,
        results: rows,
        errors,
      };
      mkdirSync(dirname(o.json), { recursive: true });
      Deno.writeTextFileSync(o.json, JSON.stringify(doc, null, 1) + "\n");
      if (final) console.error(`wrote ${o.json}`);
    }
    if (o.svg && rows.length > 0) {
      const gpuName = (env.gpu as { name?: string } | null)?.name ?? "";
      mkdirSync(dirname(o.svg), { recursive: true });
      const layout = o.split ? ", split layout" : "";
      const files = writeCharts(
        rows,
        o.svg,
        (o.cpu ? "uzip CPU codec" : `uzip GPU codec, ${gpuName}`) + layout,
      );
      if (final) console.error(`wrote ${files.join(", ")}`);
    }
  };

  for (const dtype of o.dtypes) {
    if (stop !== null) break;
    for (const data of o.datas) {
      let pattern: DataPattern;
      try {
        pattern = await makePattern(data, dtype, maxSize, o.period);
        patterns[`${data}/${dtype}`] = `${pattern.source}; period ${pattern.bytes.length} bytes`;
      } catch (e) {
        console.error(`SKIP data set ${data} (${dtype}): ${(e as Error).message}`);
        errors.push({
          size: 0,
          dtype,
          data,
          sms: null,
          error: `data set unavailable: ${(e as Error).message}`,
        });
        continue;
      }
      if (gpu === null) await runCpu(o, pattern, rows, errors, () => writeOutputs(false));
      else await runGpu(o, gpu, pattern, rows, errors, () => writeOutputs(false));
      if (stop !== null) break;
    }
  }
  gpu?.dispose();

  console.log(resultTable(rows));
  const failed = rows.filter((r) => Object.values(r.verified).some((v) => v === false));
  writeOutputs(true);
  if (failed.length > 0) console.error(`VERIFY FAILED in ${failed.length} configurations`);
  if (errors.length > 0) console.error(`${errors.length} configurations failed or were skipped (see above)`);
  if (stop !== null) console.error(`stopped early by ${stop}: results are partial`);
  return failed.length > 0 || rows.length === 0 ? 1 : stop !== null ? 124 : errors.length > 0 ? 4 : 0;
}

if (import.meta.main) Deno.exit(await main());
