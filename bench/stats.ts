// Small statistics and formatting helpers shared by the benchmarks: medians and percentiles of
// timing samples, and human-readable sizes and throughputs. No dependencies.

/** The p-th percentile (0..100) of `values`, linear interpolation between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of an empty sample");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile out of range: ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** The median of `values` (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Summary of a timing sample, in the sample's unit. */
export interface Summary {
  n: number;
  min: number;
  p10: number;
  median: number;
  p90: number;
  max: number;
  mean: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError("summary of an empty sample");
  let sum = 0;
  for (const v of values) sum += v;
  return {
    n: values.length,
    min: Math.min(...values),
    p10: percentile(values, 10),
    median: median(values),
    p90: percentile(values, 90),
    max: Math.max(...values),
    mean: sum / values.length,
  };
}

const KiB = 1024;

/** A byte count with a binary unit: 65536 -> "64 KiB", 1.5 GiB -> "1.5 GiB". */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= KiB && u < units.length - 1) {
    v /= KiB;
    u++;
  }
  const digits = Number.isInteger(v) ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
  return `${v.toFixed(digits)} ${units[u]}`;
}

/**
 * Parses a size such as "64K", "64KiB", "16M", "4G", "4GiB" or "1048576" (binary units) into bytes.
 * Throws a RangeError on anything else.
 */
export function parseBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) throw new RangeError(`not a size: "${text}" (examples: 64K, 16MiB, 4G)`);
  const scale: Record<string, number> = { "": 1, k: KiB, m: KiB ** 2, g: KiB ** 3, t: KiB ** 4 };
  const bytes = Number(m[1]) * scale[m[2].toLowerCase()];
  if (!Number.isSafeInteger(Math.round(bytes)) || bytes <= 0) throw new RangeError(`bad size: "${text}"`);
  return Math.round(bytes);
}

/** Decimal throughput from bytes and seconds: "512 MB/s", "3.21 TB/s". */
export function formatThroughput(bytes: number, seconds: number): string {
  return formatRate(bytes / seconds);
}

/** Decimal rate in bytes per second: "512 MB/s", "3.21 TB/s". */
export function formatRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond)) return "n/a";
  const units = ["B/s", "kB/s", "MB/s", "GB/s", "TB/s"];
  let v = bytesPerSecond;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[u]}`;
}

/** Milliseconds with a unit that suits them: "12.3 us", "4.56 ms", "1.20 s". */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} us`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 3 : 2)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Renders rows as a plain-text table with right-aligned columns (the first column left-aligned). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
