// The CPU encoder's bytes, pinned: the SHA-256 (first 128 bits) of the stream of every case below
// (dtype x data x size x options) against tests/fixtures/stream_digests.json.
//
// Why: the GPU kernels must write the CPU codec's bytes exactly (gpu_check compares them on a GPU), and CI
// has no GPU. A change to the CPU encoder that still round-trips (a mode chosen differently, a table
// normalized otherwise, a speed-up that reorders a decision) passes every round-trip test here and would
// only show on the next device call as GPU streams that differ. This test shows it at once. Data are fixed
// (seeded generators, the real model weights), not the run's seed: the digests are of known inputs.
//
// A change meant to alter the bytes (a format version, a new rule) regenerates the file:
//   UZIP_UPDATE_DIGESTS=1 deno test -A tests/stream_digest_test.ts
// and the commit says why the bytes changed.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { compress, type CompressOptions } from "../src/codec.ts";
import type { DType } from "../src/dtype.ts";
import { type DatasetName, makeDataset, tiledSpecials } from "../bench/data/synthetic.ts";
import { loadModelWeights } from "../bench/data/weights.ts";
import { encodeFloats, type FloatFormat, FORMAT_WIDTH } from "../src/convert.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/stream_digests.json", import.meta.url));

const FLOAT_DTYPES: readonly FloatFormat[] = ["bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"];
const SYNTHETIC: readonly DatasetName[] = ["gaussian", "uniform", "sparse", "constant", "zeros", "random"];
// Sizes across the block cases: one element, a partial block, several blocks with a partial last one.
const COUNTS = [1, 1000, 70_001] as const;
const OPTIONS: Readonly<Record<string, CompressOptions>> = {
  default: {},
  split: { split: true },
  checksum: { checksum: true },
  "split+checksum": { split: true, checksum: true },
  "log2=10": { log2Block: 10 },
  "log2=16": { log2Block: 16 },
  lanes: { lanes: true },
  pairs: { pairs: true },
  lean: { lean: true },
  "lean+split": { lean: true, split: true },
  "lean+split+log2=12": { lean: true, split: true, log2Block: 12 },
};

async function sha256(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(d.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join(""); // 128 bits suffice
}

function optionsFor(dtype: DType): [string, CompressOptions][] {
  return Object.entries(OPTIONS).filter(([name]) => name !== "pairs" || dtype === "bf16" || dtype === "fp32");
}

/** Every case's input, by name "dtype/data/count". */
async function inputs(): Promise<Map<string, [DType, Uint8Array]>> {
  const out = new Map<string, [DType, Uint8Array]>();
  const weights = await loadModelWeights();
  for (const dtype of FLOAT_DTYPES) {
    const width = FORMAT_WIDTH[dtype];
    for (const count of COUNTS) {
      for (const data of SYNTHETIC) {
        out.set(`${dtype}/${data}/${count}`, [dtype, makeDataset(data, dtype, count, 7)]);
      }
      out.set(`${dtype}/specials/${count}`, [dtype, tiledSpecials(dtype, count)]);
    }
    // The real weights: 2^18 of them (16 blocks of the default size), and the 70,001 after those.
    const real = encodeFloats(weights.all.subarray(0, (1 << 18) + 70_001), dtype);
    out.set(`${dtype}/weights/262144`, [dtype, real.subarray(0, (1 << 18) * width)]);
    out.set(`${dtype}/weights-tail/70001`, [dtype, real.subarray((1 << 18) * width)]);
  }
  return out;
}

async function digests(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, [dtype, data]] of await inputs()) {
    for (const [opt, opts] of optionsFor(dtype)) {
      out[`${name}/${opt}`] = await sha256(compress(data, dtype, opts));
    }
  }
  return out;
}

Deno.test("the CPU encoder writes the pinned bytes (tests/fixtures/stream_digests.json)", async () => {
  const got = await digests();
  if (Deno.env.get("UZIP_UPDATE_DIGESTS") === "1") {
    await Deno.writeTextFile(FIXTURE, JSON.stringify(got, null, 2) + "\n"); // as deno fmt writes it
    console.log(`wrote ${Object.keys(got).length} digests to ${FIXTURE}`);
    return;
  }
  const want = JSON.parse(await Deno.readTextFile(FIXTURE)) as Record<string, string>;
  const missing = Object.keys(want).filter((k) => !(k in got));
  const extra = Object.keys(got).filter((k) => !(k in want));
  const differ = Object.keys(got).filter((k) => k in want && got[k] !== want[k]);
  const report = [
    differ.length ? `${differ.length} streams differ: ${differ.slice(0, 12).join(", ")}` : "",
    missing.length ? `${missing.length} pinned cases not made: ${missing.slice(0, 6).join(", ")}` : "",
    extra.length ? `${extra.length} cases not pinned: ${extra.slice(0, 6).join(", ")}` : "",
  ].filter((s) => s).join("; ");
  assert.equal(
    report,
    "",
    `${report}. If the change is meant to alter the bytes, regenerate with ` +
      "UZIP_UPDATE_DIGESTS=1 deno test -A tests/stream_digest_test.ts and say why in the commit.",
  );
  assert.ok(Object.keys(got).length > 700, `only ${Object.keys(got).length} cases`);
});
