// The CPU codec with and without lean sections (FORMAT.md "Lean sections"), split layout, one thread, 64 MiB of
// Gaussian(0, 0.02) bf16, at the default block size and at 2^12: compress and decompress GB/s (medians of 15
// rounds that alternate the four settings) and the ratio. A session-37 check that the seeded path costs the CPU
// codec little; bench/codec.ts is the benchmark proper.
// Usage: deno run -A scripts/lean_cpu_ab.ts   (UZIP_LIB picks the library)
import { compress, decompress } from "../mod.ts";
import { makeDataset } from "../bench/data/synthetic.ts";

const n = 32 << 20; // 64 MiB of bf16
const data = makeDataset("gaussian", "bf16", n, 1);
const settings = [
  ["split", { split: true, threads: 1 }],
  ["split+lean", { split: true, lean: true, threads: 1 }],
  ["split log2=12", { split: true, threads: 1, log2Block: 12 }],
  ["split+lean log2=12", { split: true, lean: true, threads: 1, log2Block: 12 }],
] as const;
const rows = new Map<string, number[][]>();
for (let r = 0; r < 15; r++) {
  for (const [name, opts] of settings) {
    const t0 = performance.now();
    const s = compress(data, "bf16", opts);
    const t1 = performance.now();
    decompress(s, undefined, { threads: 1 });
    const t2 = performance.now();
    const row = [data.length / (t1 - t0) / 1e6, data.length / (t2 - t1) / 1e6, s.length / data.length];
    rows.set(name, [...(rows.get(name) ?? []), row]);
  }
}
for (const [name, v] of rows) {
  const med = (i: number) => v.map((x) => x[i]).sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(
    `${name.padEnd(20)} compress ${med(0).toFixed(2)} GB/s  decompress ${med(1).toFixed(2)} GB/s  ratio ${
      med(2).toFixed(5)
    }`,
  );
}
