// Deterministic inputs of the collective tests (CPU simulation and GPU simulation share them).
import { encodeFloats } from "../src/convert.ts";
import type { DType } from "../src/dtype.ts";

/** Element width of every dtype, in bytes. */
export const WIDTH: Record<DType, number> = { bytes: 1, bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIALS = [NaN, -0, 0, Infinity, -Infinity, 1e-40, -3e-39, 65504, 448, 57344, 3.4e38, -1];

// Gaussian-like values at a few scales (compressible exponents), with special values sprinkled in.
export function makeInput(dtype: DType, elems: number, seed: number, specials = true): Uint8Array {
  const rand = rng(seed);
  if (dtype === "bytes") return Uint8Array.from({ length: elems }, () => Math.floor(rand() * 256));
  const f = new Float32Array(elems);
  for (let i = 0; i < elems; i++) {
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    f[i] = g * 2 ** Math.floor(rand() * 4 - 2);
    if (specials && rand() < 0.02) f[i] = SPECIALS[Math.floor(rand() * SPECIALS.length)];
  }
  return encodeFloats(f, dtype);
}
