// Session 42: CPU codec ratios of split bf16 / fp32 streams, the default coding (2^13 blocks up to 16 MiB)
// against lean sections at 2^12 and 2^13. Run: deno run -A bench/results/cpu-2026-12-05-session42/lean_ratio.ts
import { compress, inspect } from "../../../mod.ts";
import { makePattern, tile } from "../../codec_data.ts";
for (const data of ["weights", "gaussian", "uniform"] as const) {
  for (const dtype of ["bf16", "fp32"] as const) {
    const pat = await makePattern(data, dtype, 16 << 20, 16 << 20);
    for (const mib of [1, 4, 16]) {
      const buf = tile(pat.bytes, mib << 20);
      const w = dtype === "bf16" ? 2 : 4;
      const arr = dtype === "bf16" ? new Uint16Array(buf.buffer) : new Uint32Array(buf.buffer);
      const d = inspect(compress(arr, dtype, { split: true })).ratio;
      const l = inspect(compress(arr, dtype, { split: true, lean: true, log2Block: 12 })).ratio;
      const l13 = inspect(compress(arr, dtype, { split: true, lean: true, log2Block: 13 })).ratio;
      console.log(`${data} ${dtype} ${mib} MiB (w${w}): default ${d.toFixed(5)} lean12 ${l.toFixed(5)} lean13 ${l13.toFixed(5)}`);
    }
  }
}
