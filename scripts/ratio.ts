// `deno task ratio`: compression ratio of the CPU codec on real and synthetic data, against the
// order-0 entropy bound of src/entropy.ts, with a bit-exact round trip checked for every row.
//
// A ratio here is compressed bytes / raw bytes (lower is better; the stream's header, directory and
// tables included). "bound" is (H_sym + 8·(w − 1)) / (8·w), the symbol plane at its order-0 entropy
// and the remainder raw; "blk bound" uses one table per block, as the codec does.
//
// Usage: deno run -A scripts/ratio.ts [--count N] [--datasets a,b] [--dtypes a,b] [--log2-block K]
//                                     [--json path]
import { parseArgs } from "node:util";
import { compress, decompress, inspect, type ModeCounts } from "../src/codec.ts";
import { encodeFloats } from "../src/convert.ts";
import type { DType } from "../src/dtype.ts";
import { planeEntropy } from "../src/entropy.ts";
import { makeDataset } from "../bench/data/synthetic.ts";
import { loadModelWeights } from "../bench/data/weights.ts";

/** Data sets of the report: the real OCR model weights and the synthetic kinds. */
export const RATIO_DATASETS = [
  "weights",
  "gaussian",
  "uniform",
  "sparse",
  "constant",
  "zeros",
  "random",
] as const;
export type RatioDataset = typeof RATIO_DATASETS[number];
/** Dtypes of the report. */
export const RATIO_DTYPES = [
  "bf16",
  "fp16",
  "fp32",
  "fp8e4m3",
  "fp8e5m2",
] as const satisfies readonly DType[];

/** One row of the report. */
export interface RatioRow {
  dataset: string;
  dtype: DType;
  elements: number;
  rawBytes: number;
  streamBytes: number;
  /** streamBytes / rawBytes. */
  ratio: number;
  /** Order-0 entropy bound of src/entropy.ts (global table). */
  bound: number;
  /** The same with one table per block. */
  blockBound: number;
  /** Both planes at their order-0 entropy (the remainder too, where that is under 8 bits a byte). */
  bothPlanesBound: number;
  /** ratio / bound. */
  vsBound: number;
  /** Symbol entropy, bits per element. */
  symbolEntropyBits: number;
  symbolModes: ModeCounts;
  remainderModes: ModeCounts;
  /** Whether decompress(compress(x)) gave x back bit for bit. */
  roundTrip: boolean;
  compressMs: number;
  decompressMs: number;
}

/** Raw bytes of a data set in a dtype: real weights are converted from fp32 with src/convert.ts. */
export async function datasetBytes(
  name: RatioDataset,
  dtype: DType,
  count: number,
  seed = 1,
): Promise<Uint8Array> {
  if (name === "weights") {
    const w = await loadModelWeights();
    if (dtype === "bytes") return encodeFloats(w.all, "fp32");
    return encodeFloats(w.all, dtype);
  }
  return makeDataset(name, dtype, count, seed);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Compresses one data set with the CPU codec, checks the round trip and compares to the bound. */
export function measure(dataset: string, dtype: DType, raw: Uint8Array, log2Block = 14): RatioRow {
  const t0 = performance.now();
  const stream = compress(raw, dtype, { log2Block });
  const t1 = performance.now();
  const back = decompress(stream);
  const t2 = performance.now();
  const info = inspect(stream);
  const e = planeEntropy(raw, dtype, { log2Block });
  const ratio = raw.length === 0 ? 1 : stream.length / raw.length;
  return {
    dataset,
    dtype,
    elements: info.count,
    rawBytes: raw.length,
    streamBytes: stream.length,
    ratio,
    bound: e.boundRatio,
    blockBound: e.blockBoundRatio,
    bothPlanesBound: e.bothPlanesBoundRatio,
    vsBound: ratio / e.boundRatio,
    symbolEntropyBits: e.symbolEntropyBits,
    symbolModes: info.symbolModes,
    remainderModes: info.remainderModes,
    roundTrip: bytesEqual(back, raw),
    compressMs: t1 - t0,
    decompressMs: t2 - t1,
  };
}

const modes = (m: ModeCounts) =>
  [m.ans && `ans ${m.ans}`, m.const && `const ${m.const}`, m.raw && `raw ${m.raw}`]
    .filter(Boolean).join(" ") || "-";

/** The report as a fixed-width text table. */
export function formatTable(rows: RatioRow[]): string {
  const head = [
    "dataset",
    "dtype",
    "elements",
    "ratio",
    "bound",
    "ratio/bound",
    "blk bound",
    "2-plane bound",
    "H_sym",
    "symbol modes",
    "remainder modes",
    "exact",
  ];
  const body = rows.map((r) => [
    r.dataset,
    r.dtype,
    String(r.elements),
    r.ratio.toFixed(4),
    r.bound.toFixed(4),
    r.bound > 0 ? r.vsBound.toFixed(4) : "-",
    r.blockBound.toFixed(4),
    r.bothPlanesBound.toFixed(4),
    r.symbolEntropyBits.toFixed(3),
    modes(r.symbolModes),
    modes(r.remainderModes),
    r.roundTrip ? "yes" : "NO",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 || i >= 9 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

function listOption<T extends string>(value: string | undefined, all: readonly T[], what: string): T[] {
  if (value === undefined) return [...all];
  const items = value.split(",").map((s) => s.trim()).filter(Boolean);
  for (const it of items) {
    if (!(all as readonly string[]).includes(it)) {
      throw new Error(`unknown ${what} "${it}"; known: ${all.join(", ")}`);
    }
  }
  return items as T[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      count: { type: "string", default: String(1 << 22) },
      datasets: { type: "string" },
      dtypes: { type: "string" },
      "log2-block": { type: "string", default: "14" },
      json: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "usage: deno task ratio [--count N] [--datasets weights,gaussian,...] [--dtypes bf16,...] " +
        "[--log2-block K] [--json path]",
    );
    return 0;
  }
  const count = Number(values.count);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--count must be a positive integer`);
  const log2Block = Number(values["log2-block"]);
  const datasets = listOption(values.datasets, RATIO_DATASETS, "data set");
  const dtypes = listOption(values.dtypes, RATIO_DTYPES, "dtype");

  const rows: RatioRow[] = [];
  let source = "";
  if (datasets.includes("weights")) source = (await loadModelWeights()).source;
  for (const ds of datasets) {
    for (const dtype of dtypes) {
      rows.push(measure(ds, dtype, await datasetBytes(ds, dtype, count), log2Block));
    }
  }
  console.log(`CPU codec, log2Block ${log2Block}; ratio = stream bytes / raw bytes (lower is better)`);
  if (source) console.log(`real weights: ${source}`);
  console.log(`synthetic: ${count} elements, seed 1\n`);
  console.log(formatTable(rows));
  const bad = rows.filter((r) => !r.roundTrip);
  if (values.json) {
    const report = {
      generated: new Date().toISOString(),
      log2Block,
      syntheticCount: count,
      weightsSource: source,
      rows,
    };
    await Deno.writeTextFile(values.json, JSON.stringify(report, null, 2) + "\n");
    console.log(`\nwrote ${values.json}`);
  }
  if (bad.length > 0) {
    console.error(`\nROUND TRIP FAILED: ${bad.map((r) => `${r.dataset}/${r.dtype}`).join(", ")}`);
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
