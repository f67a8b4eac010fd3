// Tests of src/entropy.ts: entropy of known distributions, the plane split of FORMAT.md on hand-made
// elements, and the bounds' arithmetic.
import assert from "node:assert/strict";
import { entropyBits, planeEntropy, planeHistograms } from "../src/entropy.ts";
import { encodeFloats } from "../src/convert.ts";
import { makeFloats, randomBytes } from "../bench/data/synthetic.ts";

const close = (a: number, b: number, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps, `${a} vs ${b}`);

Deno.test("entropyBits of known histograms", () => {
  close(entropyBits([]), 0);
  close(entropyBits([0, 0, 7]), 0);
  close(entropyBits([5, 5]), 1);
  close(entropyBits([1, 1, 1, 1, 0, 0, 0, 0]), 2);
  close(entropyBits([2, 1, 1]), 1.5);
  close(entropyBits(new Float64Array(256).fill(3)), 8);
});

Deno.test("the split: symbol = top byte after rotate-left-1, remainder = low bytes (bf16, fp16, fp32)", () => {
  // bf16 0xC1A5: rotl1 = 0x834B: symbol 0x83, remainder 0x4B.
  let h = planeHistograms(new Uint8Array([0xa5, 0xc1]), "bf16");
  assert.equal(h.symbol[0x83], 1);
  assert.equal(h.remainder[0x4b], 1);
  h = planeHistograms(new Uint8Array([0xa5, 0xc1]), "fp16");
  assert.equal(h.symbol[0x83], 1, "fp16 splits the same bits");
  // fp32 0x80123456: rotl1 = 0x002468AD: symbol 0x00, remainder bytes 0xAD 0x68 0x24.
  h = planeHistograms(new Uint8Array([0x56, 0x34, 0x12, 0x80]), "fp32");
  assert.equal(h.symbol[0x00], 1);
  for (const b of [0xad, 0x68, 0x24]) assert.equal(h.remainder[b], 1, `remainder byte ${b.toString(16)}`);
  assert.equal(h.remainder.reduce((a, b) => a + b), 3);
  // One-byte types: the byte is the symbol.
  h = planeHistograms(new Uint8Array([0x7f, 0x7f, 0x01]), "fp8e4m3");
  assert.equal(h.symbol[0x7f], 2);
  assert.equal(h.remainder.reduce((a, b) => a + b), 0);
});

Deno.test("bounds: constant and zero data bound to ~remainder only; random bytes to 1", () => {
  const zeros = planeEntropy(encodeFloats(makeFloats("zeros", 1 << 16, 1), "bf16"), "bf16");
  close(zeros.symbolEntropyBits, 0);
  close(zeros.boundRatio, 0.5);
  close(zeros.bothPlanesBoundRatio, 0);
  const rnd = planeEntropy(randomBytes(1 << 20, 2), "bytes");
  assert.ok(rnd.boundRatio > 0.999 && rnd.boundRatio <= 1, `${rnd.boundRatio}`);
  assert.equal(rnd.width, 1);
  assert.equal(rnd.count, 1 << 20);
});

Deno.test("bounds: gaussian weights have a few bits of exponent entropy; block bound ≤ global bound", () => {
  const xs = makeFloats("gaussian", 1 << 18, 3);
  for (const dtype of ["bf16", "fp32"] as const) {
    const e = planeEntropy(encodeFloats(xs, dtype), dtype);
    // N(0, 0.02²): exponents spread over a handful of binades, entropy about 2.7 bits.
    assert.ok(e.symbolEntropyBits > 2 && e.symbolEntropyBits < 3.5, `${dtype} H_sym ${e.symbolEntropyBits}`);
    const w = dtype === "bf16" ? 2 : 4;
    close(e.boundRatio, (e.symbolEntropyBits + 8 * (w - 1)) / (8 * w));
    assert.ok(e.blockBoundRatio <= e.boundRatio + 1e-12);
    assert.ok(e.bothPlanesBoundRatio <= e.boundRatio + 1e-12);
  }
});

Deno.test("planeEntropy rejects a byte count that is not whole elements, handles unaligned views", () => {
  assert.throws(() => planeEntropy(new Uint8Array(3), "fp32"), RangeError);
  const buf = new Uint8Array(9);
  buf.set([0x80, 0x3f, 0x00, 0x3f, 0x80, 0x3f, 0x00, 0x3f], 1); // bf16 1.0, 0.5, 1.0, 0.5
  const e = planeEntropy(buf.subarray(1), "bf16");
  assert.equal(e.count, 4);
  close(e.symbolEntropyBits, 1); // two exponents, equally often
});
