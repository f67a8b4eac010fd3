// Input data of the codec benchmarks: the paper's microbenchmark data (uniform on [-1, 1]), weight-like
// Gaussian N(0, 0.02²) and real trained weights, in each benchmarked dtype.
//
// Large sizes are built by tiling one "period" of data (default at most 64 MiB, or the whole model for
// real weights). The codec codes every block of 2^14 elements alone with its own frequency tables, so
// a tiled tensor compresses block for block exactly like fresh data of the same distribution; tiling
// only saves host time (generating 4 GiB of Gaussians in JS takes minutes).

import { encodeFloats } from "../src/convert.ts";
import type { DType } from "../src/dtype.ts";
import { makeDataset } from "./data/synthetic.ts";
import { loadModelWeights } from "./data/weights.ts";

/** Benchmark data sets. */
export type BenchData = "uniform" | "gaussian" | "weights";
export const BENCH_DATA: readonly BenchData[] = ["uniform", "gaussian", "weights"];

/** Benchmark dtype names as the CLI takes them ("fp8" is fp8 e4m3, the common training format). */
export type BenchDtype = "bf16" | "fp16" | "fp32" | "fp8" | "fp8e4m3" | "fp8e5m2";
export const BENCH_DTYPES: readonly BenchDtype[] = ["bf16", "fp16", "fp32", "fp8", "fp8e4m3", "fp8e5m2"];

/** The codec dtype of a benchmark dtype name. */
export function codecDtype(d: BenchDtype): Exclude<DType, "bytes"> {
  return d === "fp8" ? "fp8e4m3" : d;
}

/** Bytes per element. */
export function widthOf(d: BenchDtype): number {
  return d === "fp32" ? 4 : d === "bf16" || d === "fp16" ? 2 : 1;
}

/** Seed of the synthetic data sets (fixed, so every run measures the same bytes). */
export const DATA_SEED = 20260417;

/** A period of input bytes; a tensor of any size is this pattern repeated (and cut). */
export interface DataPattern {
  data: BenchData;
  dtype: BenchDtype;
  /** The period (a whole number of elements). */
  bytes: Uint8Array<ArrayBuffer>;
  /** Where the values came from. */
  source: string;
}

/**
 * The pattern of `data` in `dtype` for tensors of up to `maxBytes`: min(maxBytes, periodCap) bytes of
 * fresh synthetic data, or the whole model's weights converted to `dtype` (round to nearest even).
 */
export async function makePattern(
  data: BenchData,
  dtype: BenchDtype,
  maxBytes: number,
  periodCap: number,
): Promise<DataPattern> {
  const width = widthOf(dtype);
  const dt = codecDtype(dtype);
  if (data === "weights") {
    const w = await loadModelWeights();
    const bytes = encodeFloats(w.all, dt) as Uint8Array<ArrayBuffer>;
    return { data, dtype, bytes, source: `${w.all.length} fp32 weights of ${w.source}` };
  }
  const count = Math.max(1, Math.floor(Math.min(maxBytes, periodCap) / width));
  const bytes = makeDataset(data, dt, count, DATA_SEED) as Uint8Array<ArrayBuffer>;
  const what = data === "uniform" ? "uniform [-1, 1)" : "Gaussian N(0, 0.02^2)";
  return { data, dtype, bytes, source: `${what}, seed ${DATA_SEED}, ${count} elements` };
}

/** `size` bytes of the pattern repeated from its start (a host copy; for CPU-sized tensors). */
export function tile(pattern: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += pattern.length) {
    out.set(pattern.subarray(0, Math.min(pattern.length, size - at)), at);
  }
  return out;
}
