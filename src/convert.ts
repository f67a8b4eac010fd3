/**
 * Exact conversions between fp32 and the narrow float formats that @uccl/zip compresses: bf16, fp16
 * (IEEE binary16), fp8 e4m3 (OCP "E4M3FN") and fp8 e5m2 (OCP "E5M2"). They exist so that tests and
 * benchmarks can make data of every dtype from fp32 tensors; the codec itself never converts.
 *
 * Narrowing (fp32 to a narrow format) rounds to nearest, ties to even, and is bit-exact with the
 * hardware conversions (CUDA `__float2bfloat16_rn`, `__float2half_rn`, `cvt.rn.satfinite.e4m3x2.f32`,
 * `cvt.rn.e5m2x2.f32` without saturation), except for NaN payloads, which those leave unspecified:
 *
 * - bf16, fp16: overflow rounds to ±Inf (IEEE). A NaN stays a NaN of the same sign, its top payload
 *   bits kept and the quiet bit set (so a payload never collapses into Inf).
 * - e5m2: IEEE-like, overflow rounds to ±Inf (|x| ≥ 61440 → Inf; max finite 57344). NaN → quiet NaN
 *   (sign kept, top payload bit kept).
 * - e4m3 (E4M3FN): there is no Inf, the max finite value is 448 and S.1111.111 (0x7F / 0xFF) is NaN.
 *   We SATURATE ("satfinite", as trained-weight casts usually do): every finite |x| that would round
 *   above 448, and ±Inf, become ±448. NaN → 0x7F with the sign kept.
 * - fp32 subnormals: bf16 keeps them (RNE on the raw bits); for fp16 and fp8 they are far below half
 *   the smallest subnormal and round to ±0.
 * - The sign of zero is always kept (-0 → 0x8000 / 0x80).
 *
 * Widening (narrow format to fp32) is exact for every code: every narrow value is representable in
 * fp32. NaN payloads are carried over bit for bit (shifted into the top of the fp32 mantissa), so a
 * quiet NaN code round-trips exactly; a signaling NaN code comes back quiet.
 *
 * All functions work on typed arrays with integer bit tricks and lookup tables (tens of millions of
 * elements per second); the output array is allocated unless `out` is given.
 * @module
 */

/** The float formats handled here. */
export type FloatFormat = "bf16" | "fp16" | "fp32" | "fp8e4m3" | "fp8e5m2";

/** Bit layout of a narrow float format. */
interface MiniFloat {
  /** Mantissa bits. */
  man: number;
  /** Exponent bias. */
  bias: number;
  /** Largest finite code (sign clear). */
  maxFinite: number;
  /** Code for overflow of finite values (sign clear): Inf, or maxFinite when saturating. */
  overflow: number;
  /** Code for ±Inf input (sign clear). */
  inf: number;
}

const FP16: MiniFloat = { man: 10, bias: 15, maxFinite: 0x7bff, overflow: 0x7c00, inf: 0x7c00 };
const E4M3: MiniFloat = { man: 3, bias: 7, maxFinite: 0x7e, overflow: 0x7e, inf: 0x7e };
const E5M2: MiniFloat = { man: 2, bias: 15, maxFinite: 0x7b, overflow: 0x7c, inf: 0x7c };

function f32Bits(src: Float32Array): Uint32Array {
  return new Uint32Array(src.buffer, src.byteOffset, src.length);
}

/**
 * Rounds the magnitude `a` (fp32 bits, sign clear, finite) to the narrow format `f`, ties to even.
 * Returns the code with the sign clear; a result above `f.maxFinite` means overflow.
 */
function roundMagnitude(a: number, f: MiniFloat): number {
  const e = a >>> 23;
  // fp32 exponent of the format's smallest normal, 2^(1 - bias).
  const minNormalExp = 128 - f.bias;
  if (e >= minNormalExp) {
    // Normal in the target: rebias the exponent, then round the dropped low mantissa bits. A carry
    // out of the mantissa correctly bumps the exponent (and can reach the overflow range).
    const t = a - ((127 - f.bias) << 23);
    const shift = 23 - f.man;
    return (t + ((1 << (shift - 1)) - 1) + ((t >>> shift) & 1)) >>> shift;
  }
  if (e === 0) return 0; // fp32 zero or subnormal: far below half the target's smallest subnormal
  // Subnormal in the target: value = m·2^(e-150), unit = 2^(1-bias-man); code = value / unit.
  const shift = 151 - f.bias - f.man - e;
  if (shift > 24) return 0; // m < 2^24 ≤ half a unit: below the halfway point, rounds to zero
  const m = (a & 0x7fffff) | 0x800000;
  const q = m >>> shift;
  const rem = m - q * 2 ** shift;
  const half = 2 ** (shift - 1);
  // A round-up of the largest subnormal gives 1 << man, which is the smallest normal's code.
  return rem > half || (rem === half && (q & 1) === 1) ? q + 1 : q;
}

function narrow(
  src: Float32Array,
  f: MiniFloat,
  nanCode: (a: number) => number,
  out: Uint16Array | Uint8Array,
) {
  const bits = f32Bits(src);
  const signPos = f === FP16 ? 15 : 7; // sign bit of the narrow code
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i];
    const sign = (x >>> 31) << signPos;
    const a = x & 0x7fffffff;
    let h: number;
    if (a >= 0x7f800000) h = a === 0x7f800000 ? f.inf : nanCode(a);
    else {
      h = roundMagnitude(a, f);
      if (h > f.maxFinite) h = f.overflow;
    }
    out[i] = sign | h;
  }
}

function checkOut<T extends Uint16Array | Uint8Array | Float32Array>(
  out: T | undefined,
  n: number,
  make: (n: number) => T,
): T {
  if (out === undefined) return make(n);
  if (out.length !== n) throw new RangeError(`output has ${out.length} elements, expected ${n}`);
  return out;
}

/** fp32 → bf16 bit patterns (round to nearest even; overflow → ±Inf; NaN → quiet NaN, payload top kept). */
export function f32ToBf16(src: Float32Array, out?: Uint16Array): Uint16Array {
  const dst = checkOut(out, src.length, (n) => new Uint16Array(n));
  const bits = f32Bits(src);
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i];
    if ((x & 0x7fffffff) > 0x7f800000) dst[i] = (x >>> 16) | 0x0040;
    else dst[i] = (x + 0x7fff + ((x >>> 16) & 1)) / 65536; // x + 0x8000 ≤ 2^32: a double, then floor
  }
  return dst;
}

/** fp32 → fp16 (IEEE binary16) bit patterns: RNE, subnormals, overflow → ±Inf, NaN → quiet NaN. */
export function f32ToFp16(src: Float32Array, out?: Uint16Array): Uint16Array {
  const dst = checkOut(out, src.length, (n) => new Uint16Array(n));
  narrow(src, FP16, (a) => 0x7e00 | ((a >>> 13) & 0x3ff), dst);
  return dst;
}

/**
 * fp32 → fp8 E4M3FN codes: RNE; finite values beyond ±448 and ±Inf SATURATE to ±448 (0x7E / 0xFE);
 * NaN → 0x7F / 0xFF.
 */
export function f32ToFp8E4M3(src: Float32Array, out?: Uint8Array): Uint8Array {
  const dst = checkOut(out, src.length, (n) => new Uint8Array(n));
  narrow(src, E4M3, () => 0x7f, dst);
  return dst;
}

/** fp32 → fp8 E5M2 codes: RNE, overflow → ±Inf (0x7C / 0xFC), NaN → quiet NaN (0x7E or 0x7F). */
export function f32ToFp8E5M2(src: Float32Array, out?: Uint8Array): Uint8Array {
  const dst = checkOut(out, src.length, (n) => new Uint8Array(n));
  narrow(src, E5M2, (a) => 0x7e | ((a >>> 21) & 1), dst);
  return dst;
}

/** fp32 bits of every code of a narrow format, built once from its layout (exact, NaN payloads kept). */
function widenTable(codes: number, f: MiniFloat, nanFree: boolean): Uint32Array {
  const table = new Uint32Array(codes);
  const view = new Float32Array(table.buffer);
  const signBit = codes >>> 1;
  const expMask = (signBit - 1) >>> f.man;
  for (let c = 0; c < codes; c++) {
    const sign = c & signBit ? 0x80000000 : 0;
    const exp = (c & (signBit - 1)) >>> f.man;
    const man = c & ((1 << f.man) - 1);
    const isNan = nanFree ? (c & (signBit - 1)) === signBit - 1 : exp === expMask && man !== 0;
    if (isNan) table[c] = (sign | 0x7f800000 | (nanFree ? 0x400000 : man << (23 - f.man))) >>> 0;
    else if (!nanFree && exp === expMask) table[c] = (sign | 0x7f800000) >>> 0;
    else {
      const mag = exp === 0 ? man * 2 ** (1 - f.bias - f.man) : (1 + man / 2 ** f.man) * 2 ** (exp - f.bias);
      view[c] = sign ? -mag : mag;
    }
  }
  return table;
}

let fp16Table: Uint32Array | undefined;
let e4m3Table: Uint32Array | undefined;
let e5m2Table: Uint32Array | undefined;

function widen(src: Uint16Array | Uint8Array, table: Uint32Array, out?: Float32Array): Float32Array {
  const dst = checkOut(out, src.length, (n) => new Float32Array(n));
  const bits = f32Bits(dst);
  for (let i = 0; i < src.length; i++) bits[i] = table[src[i]];
  return dst;
}

/** bf16 bit patterns → fp32 (exact: the bf16 bits become the top half of the fp32 bits). */
export function bf16ToF32(src: Uint16Array, out?: Float32Array): Float32Array {
  const dst = checkOut(out, src.length, (n) => new Float32Array(n));
  const bits = f32Bits(dst);
  for (let i = 0; i < src.length; i++) bits[i] = src[i] << 16;
  return dst;
}

/** fp16 bit patterns → fp32 (exact; NaN payloads kept bit for bit). */
export function fp16ToF32(src: Uint16Array, out?: Float32Array): Float32Array {
  fp16Table ??= widenTable(1 << 16, FP16, false);
  return widen(src, fp16Table, out);
}

/** fp8 E4M3FN codes → fp32 (exact; 0x7F / 0xFF → ±quiet NaN 0x7FC00000). */
export function fp8E4M3ToF32(src: Uint8Array, out?: Float32Array): Float32Array {
  e4m3Table ??= widenTable(256, E4M3, true);
  return widen(src, e4m3Table, out);
}

/** fp8 E5M2 codes → fp32 (exact; ±Inf kept, NaN payloads kept bit for bit). */
export function fp8E5M2ToF32(src: Uint8Array, out?: Float32Array): Float32Array {
  e5m2Table ??= widenTable(256, E5M2, false);
  return widen(src, e5m2Table, out);
}

/** Bytes per element of each float format. */
export const FORMAT_WIDTH: Readonly<Record<FloatFormat, number>> = {
  bf16: 2,
  fp16: 2,
  fp32: 4,
  fp8e4m3: 1,
  fp8e5m2: 1,
};

/**
 * fp32 values → the raw little-endian bytes of `format` (a fresh buffer; fp32 is copied). Assumes a
 * little-endian host, like the rest of the library.
 */
export function encodeFloats(src: Float32Array, format: FloatFormat): Uint8Array {
  switch (format) {
    case "fp32":
      return new Uint8Array(src.slice().buffer);
    case "bf16":
      return new Uint8Array(f32ToBf16(src).buffer);
    case "fp16":
      return new Uint8Array(f32ToFp16(src).buffer);
    case "fp8e4m3":
      return f32ToFp8E4M3(src);
    case "fp8e5m2":
      return f32ToFp8E5M2(src);
  }
  throw new TypeError(`unknown float format: ${format}`);
}

/** The raw little-endian bytes of `format` → fp32 values (exact). `bytes.length` must fit the width. */
export function decodeFloats(bytes: Uint8Array, format: FloatFormat): Float32Array {
  const width = FORMAT_WIDTH[format];
  if (width === undefined) throw new TypeError(`unknown float format: ${format}`);
  if (bytes.length % width !== 0) {
    throw new RangeError(`${bytes.length} bytes is not a whole number of ${format} elements`);
  }
  // Copy to an aligned buffer: the input may start at any byte offset.
  const aligned = bytes.byteOffset % width === 0 ? bytes : bytes.slice();
  const n = bytes.length / width;
  switch (format) {
    case "fp32":
      return new Float32Array(aligned.buffer, aligned.byteOffset, n).slice();
    case "bf16":
      return bf16ToF32(new Uint16Array(aligned.buffer, aligned.byteOffset, n));
    case "fp16":
      return fp16ToF32(new Uint16Array(aligned.buffer, aligned.byteOffset, n));
    case "fp8e4m3":
      return fp8E4M3ToF32(bytes);
    case "fp8e5m2":
      return fp8E5M2ToF32(bytes);
  }
  throw new TypeError(`unknown float format: ${format}`);
}
