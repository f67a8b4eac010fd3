// A small dependency-free SVG line-chart writer for benchmark results: x is a size on a log2 axis,
// y a throughput (linear from zero, or log10), several series, a legend, a title and axis labels.
//
//   import { lineChartSvg } from "./svg.ts";
//   Deno.writeTextFileSync("out.svg", lineChartSvg({
//     title: "bf16 compress", xLabel: "message size", yLabel: "TB/s",
//     series: [{ name: "compress", points: [{ x: 65536, y: 0.4 }, { x: 1 << 30, y: 3.1 }] },
//              { name: "D2D copy", points: [...], dashed: true }],
//   }));

import { formatBytes } from "./stats.ts";

export interface ChartPoint {
  x: number;
  y: number;
}

export interface ChartSeries {
  name: string;
  points: readonly ChartPoint[];
  /** CSS colour; a default palette colour when absent. */
  color?: string;
  /** Draw dashed (for yardsticks such as a plain copy). */
  dashed?: boolean;
  /** An explicit SVG stroke-dasharray (e.g. "2 3" for dotted); wins over `dashed`. */
  dash?: string;
}

export interface LineChartOptions {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  width?: number;
  height?: number;
  /** Tick label of an x value (default: binary byte size, "64 KiB"). */
  xFormat?: (x: number) => string;
  /** Tick label of a y value (default: up to 3 significant digits). */
  yFormat?: (y: number) => string;
  /** log10 y axis instead of linear-from-zero. */
  yLog?: boolean;
}

const PALETTE = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#ff7f0e",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#17becf",
  "#7f7f7f",
  "#bcbd22",
];

/** Escapes text for SVG element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function defaultYFormat(y: number): string {
  if (y === 0) return "0";
  const a = Math.abs(y);
  if (a >= 1000 || a < 0.001) return y.toExponential(1);
  return String(Number(y.toPrecision(3)));
}

/** Round step (1, 2 or 5 times a power of ten) giving about `target` intervals over [0, max]. */
function niceStep(max: number, target: number): number {
  const raw = max / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

function dashAttr(s: ChartSeries): string {
  const d = s.dash ?? (s.dashed ? "6 4" : "");
  return d ? ` stroke-dasharray="${escapeXml(d)}"` : "";
}

const n2 = (v: number) => (Math.round(v * 100) / 100).toString();

/** Returns a complete standalone SVG document. Points with a non-finite or non-positive x are dropped. */
export function lineChartSvg(opts: LineChartOptions): string {
  const width = opts.width ?? 860;
  const height = opts.height ?? 480;
  const xFormat = opts.xFormat ?? formatBytes;
  const yFormat = opts.yFormat ?? defaultYFormat;
  const series = opts.series.map((s, i) => ({
    ...s,
    color: s.color ?? PALETTE[i % PALETTE.length],
    points: s.points
      .filter((p) => Number.isFinite(p.x) && p.x > 0 && Number.isFinite(p.y) && (!opts.yLog || p.y > 0))
      .slice()
      .sort((a, b) => a.x - b.x),
  }));
  const all = series.flatMap((s) => s.points);

  // Plot area: room on the left for y ticks, on the right for the legend.
  const legendWidth = Math.min(280, 48 + 8 * Math.max(8, ...series.map((s) => s.name.length)));
  const left = 72;
  const right = width - legendWidth - 16;
  const top = opts.subtitle ? 62 : 46;
  const bottom = height - 56;

  // x: log2 of the value.
  const lx = all.map((p) => Math.log2(p.x));
  let x0 = all.length ? Math.floor(Math.min(...lx)) : 0;
  let x1 = all.length ? Math.ceil(Math.max(...lx)) : 1;
  if (x1 <= x0) {
    x0 -= 1;
    x1 += 1;
  }
  const px = (x: number) => left + ((Math.log2(x) - x0) / (x1 - x0)) * (right - left);

  // y: linear from zero, or log10 between decades.
  let y0: number;
  let y1: number;
  const yTicks: number[] = [];
  if (opts.yLog) {
    const ly = all.map((p) => Math.log10(p.y));
    y0 = all.length ? Math.floor(Math.min(...ly)) : 0;
    y1 = all.length ? Math.ceil(Math.max(...ly)) : 1;
    if (y1 <= y0) y1 = y0 + 1;
    for (let d = y0; d <= y1; d++) yTicks.push(10 ** d);
  } else {
    const ymax = Math.max(0, ...all.map((p) => p.y));
    const step = ymax > 0 ? niceStep(ymax, 6) : 1;
    y0 = 0;
    y1 = Math.max(step, Math.ceil(ymax / step) * step);
    for (let v = 0; v <= y1 + step / 2; v += step) yTicks.push(Number(v.toPrecision(12)));
  }
  const py = (y: number) => {
    const t = opts.yLog ? (Math.log10(y) - y0) / (y1 - y0) : (y - y0) / (y1 - y0);
    return bottom - t * (bottom - top);
  };

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  out.push(
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">` +
      `${escapeXml(opts.title)}</text>`,
  );
  if (opts.subtitle) {
    out.push(
      `<text x="${width / 2}" y="42" text-anchor="middle" fill="#555">${escapeXml(opts.subtitle)}</text>`,
    );
  }

  // Grid and ticks. Label every power of two when they fit, else every k-th.
  const span = x1 - x0;
  const every = Math.max(1, Math.ceil(span / Math.max(1, Math.floor((right - left) / 56))));
  for (let e = x0; e <= x1; e++) {
    const x = n2(px(2 ** e));
    out.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="#eee"/>`);
    if ((e - x0) % every === 0) {
      out.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 5}" stroke="#333"/>`);
      out.push(
        `<text x="${x}" y="${bottom + 18}" text-anchor="middle">${escapeXml(xFormat(2 ** e))}</text>`,
      );
    }
  }
  for (const v of yTicks) {
    const y = n2(py(v));
    out.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#eee"/>`);
    out.push(`<line x1="${left - 5}" y1="${y}" x2="${left}" y2="${y}" stroke="#333"/>`);
    out.push(`<text x="${left - 8}" y="${y}" text-anchor="end" dy="4">${escapeXml(yFormat(v))}</text>`);
  }
  out.push(
    `<rect x="${left}" y="${top}" width="${n2(right - left)}" height="${n2(bottom - top)}" ` +
      `fill="none" stroke="#333"/>`,
  );
  out.push(
    `<text x="${n2((left + right) / 2)}" y="${height - 16}" text-anchor="middle">` +
      `${escapeXml(opts.xLabel)}</text>`,
  );
  const ymid = n2((top + bottom) / 2);
  out.push(
    `<text x="18" y="${ymid}" text-anchor="middle" transform="rotate(-90 18 ${ymid})">` +
      `${escapeXml(opts.yLabel)}</text>`,
  );

  // Series: a polyline and a marker per point, each with a tooltip.
  for (const s of series) {
    if (s.points.length === 0) continue;
    const dash = dashAttr(s);
    const pts = s.points.map((p) => `${n2(px(p.x))},${n2(py(p.y))}`).join(" ");
    out.push(`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`);
    for (const p of s.points) {
      out.push(
        `<circle cx="${n2(px(p.x))}" cy="${n2(py(p.y))}" r="3" fill="${s.color}">` +
          `<title>${escapeXml(`${s.name}: ${xFormat(p.x)} -> ${yFormat(p.y)}`)}</title></circle>`,
      );
    }
  }

  // Legend.
  const lx0 = right + 16;
  series.forEach((s, i) => {
    const y = top + 10 + i * 20;
    const dash = dashAttr(s);
    out.push(
      `<line x1="${lx0}" y1="${y}" x2="${lx0 + 26}" y2="${y}" stroke="${s.color}" stroke-width="2"${dash}/>`,
    );
    out.push(`<text x="${lx0 + 32}" y="${y}" dy="4">${escapeXml(s.name)}</text>`);
  });
  if (all.length === 0) {
    out.push(
      `<text x="${n2((left + right) / 2)}" y="${n2((top + bottom) / 2)}" text-anchor="middle" ` +
        `fill="#999">no data</text>`,
    );
  }
  out.push(`</svg>`);
  return out.join("\n") + "\n";
}
