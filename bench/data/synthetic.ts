/**
 * Seeded, deterministic synthetic test data: float distributions, random bytes, and every bit-pattern
 * class of each dtype. The same (kind, count, seed) gives the same bytes on every machine: the PRNG is
 * xoshiro128** seeded through splitmix32, Gaussians come from Box-Muller with Math.fround'd results.
 * @module
 */
import { encodeFloats } from "../../src/convert.ts";
import type { DType } from "../../src/dtype.ts";

/** xoshiro128** (Blackman and Vigna), 32-bit state words; seeded from one integer via splitmix32. */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  constructor(seed: number) {
    let z = seed >>> 0;
    const next = () => {
      z = (z + 0x9e3779b9) >>> 0;
      let t = z;
      t = Math.imul(t ^ (t >>> 16), 0x21f0aaad);
      t = Math.imul(t ^ (t >>> 15), 0x735a2d97);
      return (t ^ (t >>> 15)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
  }
  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }
  /** A uniform double in [0, 1) with 53 random bits. */
  float(): number {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Fills out[i] with N(0, sigma²) samples by Box-Muller (two per pair of uniforms). */
function fillGaussian(rng: Rng, out: Float32Array, sigma: number, mask?: (i: number) => boolean): void {
  let spare: number | null = null;
  for (let i = 0; i < out.length; i++) {
    if (mask && !mask(i)) continue;
    if (spare !== null) {
      out[i] = spare * sigma;
      spare = null;
      continue;
    }
    const u1 = 1 - rng.float(); // (0, 1]: log stays finite
    const u2 = rng.float();
    const r = Math.sqrt(-2 * Math.log(u1));
    out[i] = r * Math.cos(2 * Math.PI * u2) * sigma;
    spare = r * Math.sin(2 * Math.PI * u2);
  }
}

/** Synthetic float distributions. */
export type FloatKind = "gaussian" | "uniform" | "sparse" | "constant" | "zeros";

/** Every FloatKind. */
export const FLOAT_KINDS: readonly FloatKind[] = ["gaussian", "uniform", "sparse", "constant", "zeros"];

/** The value of the "constant" kind. */
export const CONSTANT_VALUE = 0.1;
/** The standard deviation of the "gaussian" kind (and the non-zeros of "sparse"): typical of weights. */
export const GAUSSIAN_SIGMA = 0.02;

/**
 * `count` fp32 values of a distribution: "gaussian" N(0, 0.02²); "uniform" on [-1, 1); "sparse" 90%
 * exact zeros (each element independently), the rest N(0, 0.02²); "constant" all 0.1; "zeros" all +0.
 */
export function makeFloats(kind: FloatKind, count: number, seed: number): Float32Array {
  const out = new Float32Array(count);
  const rng = new Rng(seed);
  switch (kind) {
    case "gaussian":
      fillGaussian(rng, out, GAUSSIAN_SIGMA);
      break;
    case "uniform":
      for (let i = 0; i < count; i++) out[i] = rng.float() * 2 - 1;
      break;
    case "sparse": {
      const keep = new Uint8Array(count);
      for (let i = 0; i < count; i++) keep[i] = rng.u32() < 0x1999999a ? 1 : 0; // P = 0.1
      fillGaussian(rng, out, GAUSSIAN_SIGMA, (i) => keep[i] === 1);
      break;
    }
    case "constant":
      out.fill(CONSTANT_VALUE);
      break;
    case "zeros":
      break;
    default:
      throw new TypeError(`unknown float kind: ${kind}`);
  }
  return out;
}

/** `n` uniformly random bytes. */
export function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  const rng = new Rng(seed);
  for (let i = 0; i < n; i += 4) {
    const v = rng.u32();
    for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (v >>> (8 * k)) & 0xff;
  }
  return out;
}

/** A named bit-pattern class of a dtype and its codes (sign clear; specialPatterns adds both signs). */
export interface PatternClass {
  name: string;
  codes: number[];
}

/**
 * The bit-pattern classes of each dtype, as unsigned codes of its width with the sign clear: zero,
 * the smallest and largest subnormal, the smallest and largest normal, one (a typical normal), Inf
 * where the format has it, and NaNs: quiet and signaling with several payloads where the format has
 * payloads (E4M3FN has a single NaN code per sign). For "bytes": 0x00, 0x7F, 0x80, 0xFF.
 */
export function patternClasses(dtype: DType): PatternClass[] {
  switch (dtype) {
    case "bytes":
      return [{ name: "bytes", codes: [0x00, 0x01, 0x7f, 0x80, 0xff] }];
    case "bf16":
      return [
        { name: "zero", codes: [0x0000] },
        { name: "subnormal", codes: [0x0001, 0x007f] },
        { name: "normal", codes: [0x0080, 0x3f80, 0x7f7f] },
        { name: "inf", codes: [0x7f80] },
        { name: "qnan", codes: [0x7fc0, 0x7fc1, 0x7fff] },
        { name: "snan", codes: [0x7f81, 0x7fa5, 0x7fbf] },
      ];
    case "fp16":
      return [
        { name: "zero", codes: [0x0000] },
        { name: "subnormal", codes: [0x0001, 0x03ff] },
        { name: "normal", codes: [0x0400, 0x3c00, 0x7bff] },
        { name: "inf", codes: [0x7c00] },
        { name: "qnan", codes: [0x7e00, 0x7e01, 0x7fff] },
        { name: "snan", codes: [0x7c01, 0x7d55, 0x7dff] },
      ];
    case "fp32":
      return [
        { name: "zero", codes: [0x00000000] },
        { name: "subnormal", codes: [0x00000001, 0x007fffff] },
        { name: "normal", codes: [0x00800000, 0x3f800000, 0x7f7fffff] },
        { name: "inf", codes: [0x7f800000] },
        { name: "qnan", codes: [0x7fc00000, 0x7fc00001, 0x7fffffff] },
        { name: "snan", codes: [0x7f800001, 0x7faaaaaa, 0x7fbfffff] },
      ];
    case "fp8e4m3":
      return [
        { name: "zero", codes: [0x00] },
        { name: "subnormal", codes: [0x01, 0x07] },
        { name: "normal", codes: [0x08, 0x38, 0x7e] },
        { name: "nan", codes: [0x7f] },
      ];
    case "fp8e5m2":
      return [
        { name: "zero", codes: [0x00] },
        { name: "subnormal", codes: [0x01, 0x03] },
        { name: "normal", codes: [0x04, 0x3c, 0x7b] },
        { name: "inf", codes: [0x7c] },
        { name: "qnan", codes: [0x7e, 0x7f] },
        { name: "snan", codes: [0x7d] },
      ];
  }
  throw new TypeError(`unknown dtype: ${dtype}`);
}

const WIDTH: Record<DType, number> = { bytes: 1, bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };

/**
 * Raw little-endian bytes holding every pattern class of `dtype`, each code with both signs (positive
 * then negative; for "bytes" the codes as they are), in the order of patternClasses.
 */
export function specialPatterns(dtype: DType): Uint8Array {
  const width = WIDTH[dtype];
  if (width === undefined) throw new TypeError(`unknown dtype: ${dtype}`);
  const codes: number[] = [];
  for (const c of patternClasses(dtype)) {
    for (const code of c.codes) {
      codes.push(code);
      if (dtype !== "bytes") codes.push(code + 2 ** (8 * width - 1));
    }
  }
  const out = new Uint8Array(codes.length * width);
  const view = new DataView(out.buffer);
  codes.forEach((code, i) => {
    if (width === 4) view.setUint32(i * 4, code, true);
    else if (width === 2) view.setUint16(i * 2, code, true);
    else view.setUint8(i, code);
  });
  return out;
}

/** `count` elements of `dtype` made by repeating its special patterns (specialPatterns) from the first. */
export function tiledSpecials(dtype: DType, count: number): Uint8Array {
  const pat = specialPatterns(dtype);
  const out = new Uint8Array(count * WIDTH[dtype]);
  for (let i = 0; i < out.length; i += pat.length) out.set(pat.subarray(0, out.length - i), i);
  return out;
}

/** Data set names for makeDataset: the float kinds, plus "random" (uniform random bytes). */
export type DatasetName = FloatKind | "random";

/**
 * `count` elements of `dtype` as raw bytes. Float kinds are made in fp32 and converted with
 * src/convert.ts (round to nearest even); "random" is count × width random bytes (any bit pattern,
 * NaNs included); for dtype "bytes" a float kind gives the fp32 bytes of the first count/4 floats
 * (rounded up) cut to count bytes.
 */
export function makeDataset(name: DatasetName, dtype: DType, count: number, seed: number): Uint8Array {
  const width = WIDTH[dtype];
  if (width === undefined) throw new TypeError(`unknown dtype: ${dtype}`);
  if (name === "random") return randomBytes(count * width, seed);
  if (dtype === "bytes") {
    return encodeFloats(makeFloats(name, Math.ceil(count / 4), seed), "fp32").subarray(0, count);
  }
  return encodeFloats(makeFloats(name, count, seed), dtype);
}
