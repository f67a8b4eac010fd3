// Reporting of the codec benchmark: result rows, the printed table, the JSON document's environment
// block, and the SVG charts (throughput against size, one chart per dtype and SM limit).

import { native } from "../ffi/deno.ts";
import type { DeviceInfo } from "../src/device.ts";
import type { BenchData, BenchDtype } from "./codec_data.ts";
import { formatBytes, formatTable, median, percentile } from "./stats.ts";
import { type ChartSeries, lineChartSvg } from "./svg.ts";

export type Op = "copy" | "compress" | "decompress";
export const OPS: readonly Op[] = ["copy", "compress", "decompress"];

/** One measured configuration. Throughputs are input (uncompressed) bytes per second. */
export interface ResultRow {
  mode: "gpu" | "cpu";
  size: number;
  dtype: BenchDtype;
  data: BenchData;
  /** GPU: the codec's SM limit (0 = whole chip; the copy always uses the whole chip). CPU: null. */
  sms: number | null;
  compressedBytes: number;
  ratio: number;
  verified: Record<string, boolean | null>;
  medianMs: Record<Op, number>;
  p10Ms: Record<Op, number>;
  p90Ms: Record<Op, number>;
  bytesPerSecond: Record<Op, number>;
  /** Raw timings: milliseconds per call, one entry per timed sample. */
  timingsMs: Record<Op, number[]>;
  /** Mode-specific details (slots, filler, calls per sample...). */
  details: Record<string, unknown>;
}

/** A row from raw timings. */
export function makeRow(
  base: Omit<ResultRow, "medianMs" | "p10Ms" | "p90Ms" | "bytesPerSecond">,
): ResultRow {
  const of = (f: (v: number[]) => number) =>
    Object.fromEntries(OPS.map((op) => [op, f(base.timingsMs[op])])) as Record<Op, number>;
  const medianMs = of(median);
  return {
    ...base,
    medianMs,
    p10Ms: of((v) => percentile(v, 10)),
    p90Ms: of((v) => percentile(v, 90)),
    bytesPerSecond: Object.fromEntries(OPS.map((op) => [op, base.size / (medianMs[op] / 1000)])) as Record<
      Op,
      number
    >,
  };
}

const smsLabel = (sms: number | null) => (sms === null ? "cpu" : sms === 0 ? "all" : String(sms));
const fixed = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : "n/a");
const allVerified = (r: ResultRow) => Object.values(r.verified).every((v) => v !== false);

/** The printed table: TB/s for GPU rows, MB/s (GB/s for the memcpy) for CPU rows. */
export function resultTable(rows: readonly ResultRow[]): string {
  const gpu = rows.some((r) => r.mode === "gpu");
  const header = gpu
    ? [
      "size",
      "dtype",
      "data",
      "SMs",
      "ratio",
      "comp TB/s",
      "decomp TB/s",
      "copy TB/s",
      "comp/copy",
      "decomp/copy",
      "check",
    ]
    : [
      "size",
      "dtype",
      "data",
      "ratio",
      "comp MB/s",
      "decomp MB/s",
      "memcpy GB/s",
      "comp/copy",
      "decomp/copy",
      "check",
    ];
  const body = rows.map((r) => {
    const bps = r.bytesPerSecond;
    const cells = gpu
      ? [
        formatBytes(r.size),
        r.dtype,
        r.data,
        smsLabel(r.sms),
        fixed(r.ratio),
        fixed(bps.compress / 1e12),
        fixed(bps.decompress / 1e12),
        fixed(bps.copy / 1e12),
        fixed(bps.compress / bps.copy),
        fixed(bps.decompress / bps.copy),
      ]
      : [
        formatBytes(r.size),
        r.dtype,
        r.data,
        fixed(r.ratio),
        fixed(bps.compress / 1e6, 0),
        fixed(bps.decompress / 1e6, 0),
        fixed(bps.copy / 1e9, 1),
        fixed(bps.compress / bps.copy),
        fixed(bps.decompress / bps.copy),
      ];
    cells.push(allVerified(r) ? "ok" : "FAILED");
    return cells;
  });
  return formatTable(header, body);
}

/** Runs a command and returns its trimmed stdout, or null when it cannot run or fails. */
async function commandOutput(cmd: string, args: string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/** The NCCL version of libnccl.so.2 when it can be loaded ("2.28.3"), else null. */
export function ncclVersion(): string | null {
  try {
    const lib = Deno.dlopen("libnccl.so.2", { ncclGetVersion: { parameters: ["buffer"], result: "i32" } });
    try {
      const v = new Int32Array(1);
      if (lib.symbols.ncclGetVersion(v) !== 0) return null;
      const code = v[0];
      return `${Math.floor(code / 10000)}.${Math.floor(code / 100) % 100}.${code % 100} (${code})`;
    } finally {
      lib.close();
    }
  } catch {
    return null;
  }
}

/**
 * The git commit of the tree, or $UZIP_GIT_COMMIT when set: a tree copied to a GPU machine may hold a
 * stale .git (session 11's sweep recorded the session's first commit as HEAD, "dirty"), and the
 * device scripts set the variable to the commit the library was packed at.
 */
export async function gitCommit(): Promise<{ commit: string | null; dirty: boolean | null }> {
  const given = Deno.env.get("UZIP_GIT_COMMIT");
  if (given) return { commit: given, dirty: null };
  const commit = await commandOutput("git", ["rev-parse", "HEAD"]);
  if (commit === null) return { commit: null, dirty: null };
  const status = await commandOutput("git", ["status", "--porcelain", "--untracked-files=no"]);
  return { commit, dirty: status === null ? null : status.length > 0 };
}

function cpuModel(): string | null {
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(Deno.readTextFileSync("/proc/cpuinfo"));
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

/** Shell-quotes an argument list. */
export function shellJoin(args: readonly string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** Where and with what the benchmark ran. */
export async function environment(gpu: DeviceInfo | null): Promise<Record<string, unknown>> {
  const lib = native();
  const driver = gpu
    ? await commandOutput("nvidia-smi", ["--query-gpu=driver_version", "--format=csv,noheader", "-i", "0"])
    : null;
  return {
    date: new Date().toISOString(),
    command: `deno run -A bench/codec.ts ${shellJoin(Deno.args)}`,
    argv: Deno.args,
    git: await gitCommit(),
    host: { hostname: Deno.hostname(), os: `${Deno.build.os} ${Deno.osRelease()}`, cpu: cpuModel() },
    deno: Deno.version.deno,
    libuzip: { version: lib.uzipVersion(), formatVersion: lib.uzipFormatVersion() },
    // The knobs of this run (UZIP_CPU_SIMD, UZIP_GPU_ENC_VARIANT, NCCL_P2P_DISABLE, ...), for A/B records.
    env: Object.fromEntries(
      Object.entries(Deno.env.toObject()).filter(([k]) => k.startsWith("UZIP_") || k.startsWith("NCCL_"))
        .sort(),
    ),
    gpu: gpu === null ? null : {
      ...gpu,
      nvidiaDriver: driver?.split("\n")[0] ?? null,
      cudaDriverApi: gpu.driverVersion,
      nccl: ncclVersion(),
    },
  };
}

function suffixPath(path: string, suffix: string): string {
  const dot = path.toLowerCase().endsWith(".svg") ? path.length - 4 : path.length;
  return `${path.slice(0, dot)}${suffix}.svg`;
}

/**
 * Writes the charts: one per dtype and SM limit, the copy drawn dashed. One chart goes to `path`
 * itself; several go to `path` with "-<dtype>[-<n>sm]" before ".svg". Returns the paths written.
 */
export function writeCharts(rows: readonly ResultRow[], path: string, title: string): string[] {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const key = `${r.dtype}|${r.sms ?? "cpu"}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const written: string[] = [];
  for (const group of groups.values()) {
    const { dtype, sms, mode } = group[0];
    const gpu = mode === "gpu";
    const scale = gpu ? 1e12 : 1e9;
    const series: ChartSeries[] = [];
    const datas = [...new Set(group.map((r) => r.data))];
    // One colour per data set; compress solid, decompress dotted.
    const colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"];
    for (const op of ["compress", "decompress"] as const) {
      for (const [i, data] of datas.entries()) {
        series.push({
          name: `${op} ${data}`,
          color: colors[i % colors.length],
          dash: op === "decompress" ? "2 3" : undefined,
          points: group.filter((r) => r.data === data).map((r) => ({
            x: r.size,
            y: r.bytesPerSecond[op] / scale,
          })),
        });
      }
    }
    const sizes = [...new Set(group.map((r) => r.size))];
    series.push({
      name: gpu ? "D2D copy (whole chip)" : "memcpy (1 thread)",
      dashed: true,
      color: "#444",
      points: sizes.map((x) => ({
        x,
        y: median(group.filter((r) => r.size === x).map((r) => r.bytesPerSecond.copy)) / scale,
      })),
    });
    const where = gpu ? (sms === 0 ? "whole chip" : `${sms} SMs`) : "CPU, one thread";
    const svg = lineChartSvg({
      title: `${title}: ${dtype}, ${where}`,
      subtitle: "throughput = uncompressed bytes / median time",
      xLabel: "tensor size",
      yLabel: gpu ? "TB/s" : "GB/s (log scale)",
      // On the CPU the memcpy is ~100x the codec: only a log axis shows both.
      yLog: !gpu,
      series,
    });
    const suffix = groups.size === 1 ? "" : `-${dtype}${gpu && sms !== 0 ? `-${sms}sm` : ""}`;
    const file = suffixPath(path, suffix);
    Deno.writeTextFileSync(file, svg);
    written.push(file);
  }
  return written;
}
