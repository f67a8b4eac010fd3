// The benchmarks' statistics, size parsing/formatting and SVG writer: what the recorded results and
// charts in bench/results/ rest on.
import { assert, assertEquals, assertThrows } from "./_assert.ts";
import { formatBytes, median, parseBytes, percentile, summarize } from "../bench/stats.ts";
import { escapeXml, lineChartSvg } from "../bench/svg.ts";

Deno.test("percentile and median interpolate between ranks and reject empty samples", () => {
  assertEquals(median([3, 1, 2]), 2);
  assertEquals(median([4, 1, 3, 2]), 2.5);
  assertEquals(percentile([10, 20, 30, 40, 50], 0), 10);
  assertEquals(percentile([10, 20, 30, 40, 50], 100), 50);
  assertEquals(percentile([10, 20, 30, 40, 50], 25), 20);
  assertThrows(() => median([]));
  assertThrows(() => percentile([1], 101));
  const s = summarize([5, 1, 4, 2, 3]);
  assertEquals([s.n, s.min, s.median, s.max, s.mean], [5, 1, 3, 5, 3]);
});

Deno.test("byte sizes format and parse with binary units", () => {
  assertEquals(formatBytes(65536), "64 KiB");
  assertEquals(formatBytes(1.5 * 2 ** 30), "1.50 GiB");
  for (
    const [text, bytes] of [["64K", 65536], ["256MiB", 256 * 2 ** 20], ["1G", 2 ** 30], [
      "4096",
      4096,
    ]] as const
  ) {
    assertEquals(parseBytes(text), bytes, text);
  }
});

Deno.test("line charts are well-formed SVG with one path per series and escaped text", () => {
  const svg = lineChartSvg({
    title: "bf16 <compress> & decompress",
    xLabel: "size",
    yLabel: "TB/s",
    series: [
      { name: "compress", points: [{ x: 65536, y: 0.1 }, { x: 2 ** 30, y: 0.3 }] },
      { name: "copy", points: [{ x: 65536, y: 0.01 }, { x: 2 ** 30, y: 2.1 }], dashed: true },
    ],
  });
  assert(svg.startsWith("<svg") || svg.startsWith("<?xml"), svg.slice(0, 40));
  assert(svg.trimEnd().endsWith("</svg>"));
  assertEquals((svg.match(/<(path|polyline)\b/g) ?? []).length, 2, "one line per series");
  assert(svg.includes(escapeXml("bf16 <compress> & decompress")));
  assert(!svg.includes("<compress>"), "text must be escaped");
  assert(!/NaN|Infinity/.test(svg), "no non-finite coordinates");
});

Deno.test("the codec CLI's CPU measurement codes the layout it is given (bench/codec.ts --split)", async () => {
  const { measureCpu } = await import("../bench/codec_cpu.ts");
  const { makePattern, tile } = await import("../bench/codec_data.ts");
  const { compress } = await import("../src/codec.ts");
  // 1 MiB of Gaussian bf16: the split layout's default is lean 2^12 blocks, the default layout's plain 2^13 ones,
  // so the two sizes differ and each must equal the public API's stream for that layout.
  const pattern = await makePattern("gaussian", "bf16", 1 << 20, 1 << 20);
  const input = tile(pattern.bytes, 1 << 20);
  const opts = { repeat: 1, warmup: 1, minSampleMs: 0 };
  const plain = measureCpu(input, "bf16", opts);
  const split = measureCpu(input, "bf16", { ...opts, split: true });
  assertEquals(plain.compressedBytes, compress(input, "bf16").byteLength);
  assertEquals(split.compressedBytes, compress(input, "bf16", { split: true }).byteLength);
  assert(split.compressedBytes !== plain.compressedBytes, "the split layout's stream has its own size");
});
