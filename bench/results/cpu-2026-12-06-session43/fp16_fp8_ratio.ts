// Session 43: CPU codec ratios of small fp16 (split) and fp8 e4m3 streams, the default coding (2^14 blocks)
// against smaller blocks: plain 2^13 / 2^12, and for fp16 lean sections at 2^13 / 2^12 (fp8 has no remainder,
// so no lean sections). A GPU's small call takes about one block's latency (1 MiB decoded in ~55 us at 2^14
// on an H200, against ~24 us for bf16's lean 2^12). Run: deno run -A bench/results/cpu-2026-12-06-session43/fp16_fp8_ratio.ts
import { compress, inspect } from "../../../mod.ts";
import { makePattern, tile } from "../../codec_data.ts";
const r = (a: Uint8Array | Uint16Array, dtype: "fp16" | "fp8e4m3", opts: Record<string, unknown>) =>
  inspect(compress(a, dtype, opts)).ratio.toFixed(5);
for (const data of ["weights", "gaussian", "uniform"] as const) {
  for (const dtype of ["fp16", "fp8e4m3"] as const) {
    const pat = await makePattern(data, dtype, 16 << 20, 16 << 20);
    for (const mib of [1, 4, 16]) {
      const buf = tile(pat.bytes, mib << 20);
      const a = dtype === "fp16" ? new Uint16Array(buf.buffer) : buf;
      const split = dtype === "fp16";
      const row = [`default ${r(a, dtype, { split })}`];
      for (const log2Block of [13, 12]) row.push(`plain${log2Block} ${r(a, dtype, { split, log2Block })}`);
      if (split) for (const log2Block of [13, 12]) row.push(`lean${log2Block} ${r(a, dtype, { split, lean: true, log2Block })}`);
      console.log(`${data} ${dtype} ${mib} MiB: ${row.join(" ")}`);
    }
  }
}
