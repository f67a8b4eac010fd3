// Tests of src/convert.ts against a slow, independent reference: the exact value of every code of a
// format is built from its fields with exact double arithmetic, and fp32 → narrow rounding is a
// binary search for the nearest value with ties to the even code. Exhaustive over every bf16/fp16
// code and every fp8 code, every tie between adjacent codes, and millions of random fp32 inputs.
import assert from "node:assert/strict";
import {
  bf16ToF32,
  decodeFloats,
  encodeFloats,
  f32ToBf16,
  f32ToFp16,
  f32ToFp8E4M3,
  f32ToFp8E5M2,
  fp16ToF32,
  fp8E4M3ToF32,
  fp8E5M2ToF32,
} from "../src/convert.ts";
import { Rng } from "../bench/data/synthetic.ts";

interface Format {
  name: string;
  bits: 8 | 16;
  man: number;
  bias: number;
  /** E4M3FN: no Inf, only all-ones is NaN, saturating overflow. */
  fn: boolean;
  narrow: (x: Float32Array) => Uint8Array | Uint16Array;
  widen: (c: Uint16Array | Uint8Array) => Float32Array;
}

const FORMATS: Format[] = [
  {
    name: "bf16",
    bits: 16,
    man: 7,
    bias: 127,
    fn: false,
    narrow: (x) => f32ToBf16(x),
    widen: (c) => bf16ToF32(c as Uint16Array),
  },
  {
    name: "fp16",
    bits: 16,
    man: 10,
    bias: 15,
    fn: false,
    narrow: (x) => f32ToFp16(x),
    widen: (c) => fp16ToF32(c as Uint16Array),
  },
  {
    name: "e4m3",
    bits: 8,
    man: 3,
    bias: 7,
    fn: true,
    narrow: (x) => f32ToFp8E4M3(x),
    widen: (c) => fp8E4M3ToF32(c as Uint8Array),
  },
  {
    name: "e5m2",
    bits: 8,
    man: 2,
    bias: 15,
    fn: false,
    narrow: (x) => f32ToFp8E5M2(x),
    widen: (c) => fp8E5M2ToF32(c as Uint8Array),
  },
];

/** The reference model of a format: exact values of the sign-clear finite codes, in code order. */
class Ref {
  readonly signBit: number;
  readonly maxFinite: number;
  readonly values: number[] = [];
  constructor(readonly f: Format) {
    this.signBit = 2 ** (f.bits - 1);
    const expOnes = 2 ** (f.bits - 1 - f.man) - 1;
    this.maxFinite = f.fn ? this.signBit - 2 : expOnes * 2 ** f.man - 1;
    for (let c = 0; c <= this.maxFinite; c++) this.values.push(this.value(c));
  }
  /** Exact value of a sign-clear finite code, from its fields. */
  value(c: number): number {
    const exp = Math.floor(c / 2 ** this.f.man), man = c % 2 ** this.f.man;
    return exp === 0
      ? man * 2 ** (1 - this.f.bias - this.f.man)
      : (2 ** this.f.man + man) * 2 ** (exp - this.f.bias - this.f.man);
  }
  isNan(code: number): boolean {
    const mag = code % this.signBit;
    return this.f.fn ? mag === this.signBit - 1 : mag > this.maxFinite + 1;
  }
  isInf(code: number): boolean {
    return !this.f.fn && code % this.signBit === this.maxFinite + 1;
  }
  /** Exact value of any code (NaN for NaN codes). */
  decode(code: number): number {
    if (this.isNan(code)) return NaN;
    const neg = code >= this.signBit;
    const mag = this.isInf(code) ? Infinity : this.values[code % this.signBit];
    return neg ? -mag : mag;
  }
  /** The code of a non-NaN number: nearest, ties to even; overflow to Inf or (E4M3FN) saturation. */
  encode(x: number): number {
    const sign = x < 0 || Object.is(x, -0) ? this.signBit : 0;
    const a = Math.abs(x);
    const v = this.values, top = this.maxFinite;
    if (a > v[top]) {
      if (this.f.fn) return sign + top; // satfinite, Inf included
      const threshold = v[top] + (v[top] - v[top - 1]) / 2; // beyond: nearer 2^(emax+1), i.e. Inf
      return sign + (a >= threshold ? top + 1 : top); // the tie goes to Inf: maxFinite's mantissa is odd
    }
    let lo = 0, hi = top; // v[lo] <= a <= v[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (v[mid] <= a) lo = mid;
      else hi = mid;
    }
    if (v[lo] === a) return sign + lo;
    if (v[hi] === a) return sign + hi;
    const m = (v[lo] + v[hi]) / 2; // exact: both are fp32 values
    const code = a < m ? lo : a > m ? hi : lo % 2 === 0 ? lo : hi;
    return sign + code;
  }
}

const f32 = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0];
const bitsOf = (x: Float32Array) => new Uint32Array(x.buffer, x.byteOffset, x.length);
const hex = (n: number) => "0x" + n.toString(16);

function allCodes(f: Format): Uint16Array | Uint8Array {
  const n = 2 ** f.bits;
  const codes = f.bits === 16 ? new Uint16Array(n) : new Uint8Array(n);
  for (let c = 0; c < n; c++) codes[c] = c;
  return codes;
}

for (const f of FORMATS) {
  const ref = new Ref(f);

  Deno.test(`${f.name}: every code widens to its exact value`, () => {
    const codes = allCodes(f);
    const wide = f.widen(codes);
    for (let c = 0; c < codes.length; c++) {
      const want = ref.decode(c), got = wide[c];
      if (Number.isNaN(want)) {
        assert.ok(Number.isNaN(got), `${f.name} ${hex(c)} should widen to NaN, got ${got}`);
        assert.equal(bitsOf(wide)[c] >>> 31, c >= ref.signBit ? 1 : 0, `${f.name} ${hex(c)} NaN sign`);
      } else assert.ok(Object.is(got, want), `${f.name} ${hex(c)}: got ${got}, want ${want}`);
    }
  });

  Deno.test(`${f.name}: every code round-trips through fp32 (NaN codes come back quiet)`, () => {
    const codes = allCodes(f);
    const back = f.narrow(f.widen(codes));
    const quietBit = f.fn ? 0 : 2 ** (f.man - 1);
    for (let c = 0; c < codes.length; c++) {
      const want = ref.isNan(c) ? c | quietBit : c;
      assert.equal(back[c], want, `${f.name} ${hex(c)} → ${hex(back[c])}, want ${hex(want)}`);
    }
  });

  Deno.test(`${f.name}: ties between adjacent codes round to even; one fp32 ulp off goes the near way`, () => {
    const xs: number[] = [], want: number[] = [];
    for (let c = 0; c < ref.maxFinite; c++) {
      const lo = ref.values[c], hi = ref.values[c + 1];
      const m = (lo + hi) / 2;
      assert.equal(Math.fround(m), m, "midpoints of narrow values are fp32 values");
      const mBits = bitsOf(new Float32Array([m]))[0];
      for (const sign of [1, -1]) {
        const s = sign < 0 ? ref.signBit : 0;
        xs.push(sign * m, sign * f32(mBits - 1), sign * f32(mBits + 1));
        want.push(s + (c % 2 === 0 ? c : c + 1), s + c, s + c + 1);
      }
    }
    const got = f.narrow(new Float32Array(xs));
    for (let i = 0; i < xs.length; i++) {
      assert.equal(got[i], want[i], `${f.name}(${xs[i]}) = ${hex(got[i])}, want ${hex(want[i])}`);
    }
  });

  Deno.test(`${f.name}: signed zero, subnormals, overflow, Inf and NaN`, () => {
    const sb = ref.signBit, top = ref.maxFinite, v = ref.values;
    const overflowCode = f.fn ? top : top + 1;
    const cases: [number, number][] = [
      [0, 0],
      [-0, sb],
      [v[1], 1], // smallest subnormal
      [-v[1], sb + 1],
      [v[1] / 2, 0], // exact half of the smallest subnormal: tie to even (zero)
      [-v[1] / 2, sb],
      [f32(bitsOf(new Float32Array([v[1] / 2]))[0] + 1), 1], // one fp32 ulp above that half
      [v[2 ** f.man - 1], 2 ** f.man - 1], // largest subnormal
      [v[2 ** f.man], 2 ** f.man], // smallest normal
      [v[top], top],
      [-v[top], sb + top],
      [Math.fround(v[top] * 4), overflowCode],
      [f32(0xff7fffff), sb + overflowCode], // the largest finite fp32, negative
      [Infinity, f.fn ? top : top + 1],
      [-Infinity, sb + (f.fn ? top : top + 1)],
      [f32(0x00000001), 0], // fp32 subnormals underflow (bf16 is checked below)
      [f32(0x80000001), sb],
    ];
    if (f.name === "bf16") cases.splice(cases.length - 2, 2, [f32(0x00010000), 1], [f32(0x80008000), sb]);
    const got = f.narrow(new Float32Array(cases.map((c) => c[0])));
    cases.forEach(([x, want], i) =>
      assert.equal(got[i], want, `${f.name}(${x}) = ${hex(got[i])}, want ${hex(want)}`)
    );
    // NaNs: every payload, both signs, quiet and signaling, stays a NaN of the same sign.
    const nanBits = [0x7fc00000, 0x7f800001, 0x7fbfffff, 0x7fffffff, 0x7fa00000, 0x7f802000];
    const nans = new Uint32Array(nanBits.flatMap((b) => [b, (b | 0x80000000) >>> 0]));
    const out = f.narrow(new Float32Array(nans.buffer));
    nans.forEach((b, i) => {
      assert.ok(ref.isNan(out[i]), `${f.name}(NaN ${hex(b)}) = ${hex(out[i])} is not a NaN`);
      assert.equal(out[i] >= sb, b >>> 31 === 1, `${f.name}(NaN ${hex(b)}) sign`);
    });
  });

  Deno.test(`${f.name}: millions of random fp32 values match the reference`, () => {
    const rng = new Rng(0x5eed + f.bits + f.man);
    const n = 1 << 20;
    const bits = new Uint32Array(2 * n);
    // Half: uniform bit patterns (every exponent, NaNs and Infs included). Half: exponents around the
    // format's range (from below its smallest subnormal to above its max), random mantissas.
    const lowExp = 127 - ref.f.bias - ref.f.man - 3, span = (ref.f.bits === 16 && ref.f.man === 7) ? 256 : 50;
    for (let i = 0; i < n; i++) bits[i] = rng.u32();
    for (let i = n; i < 2 * n; i++) {
      const e = Math.max(0, Math.min(254, lowExp + (rng.u32() % span)));
      bits[i] = ((rng.u32() & 0x80000000) | (e << 23) | (rng.u32() & 0x7fffff)) >>> 0;
    }
    const xs = new Float32Array(bits.buffer);
    const got = f.narrow(xs);
    let checked = 0;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (Number.isNaN(x)) {
        if (!ref.isNan(got[i])) assert.fail(`${f.name}(NaN ${hex(bits[i])}) = ${hex(got[i])}`);
        continue;
      }
      const want = ref.encode(x);
      if (got[i] !== want) {
        assert.fail(`${f.name}(${x} = ${hex(bits[i])}) = ${hex(got[i])}, want ${hex(want)}`);
      }
      checked++;
    }
    assert.ok(checked > n, "most inputs are not NaN");
  });
}

Deno.test("fp16 agrees with the platform's Math.f16round / Float16Array where present", () => {
  const m = Math as unknown as { f16round?: (x: number) => number };
  const F16 = (globalThis as unknown as {
    Float16Array?: new (n: number) => ArrayLike<number> & { buffer: ArrayBuffer };
  })
    .Float16Array;
  if (!m.f16round || !F16) {
    console.log("SKIP: this runtime has no Math.f16round / Float16Array");
    return;
  }
  const rng = new Rng(16);
  const bits = new Uint32Array(1 << 18);
  for (let i = 0; i < bits.length; i++) bits[i] = rng.u32() & 0xbfffffff; // |x| < 2: dense near fp16 range
  const xs = new Float32Array(bits.buffer);
  const got = f32ToFp16(xs);
  const platform = new F16(xs.length) as unknown as Float64Array;
  for (let i = 0; i < xs.length; i++) platform[i] = m.f16round(xs[i]);
  const platformBits = new Uint16Array((platform as unknown as { buffer: ArrayBuffer }).buffer);
  for (let i = 0; i < xs.length; i++) {
    if (Number.isNaN(xs[i])) continue;
    if (got[i] !== platformBits[i]) {
      assert.fail(`f32ToFp16(${xs[i]}) = ${hex(got[i])}, platform ${hex(platformBits[i])}`);
    }
  }
});

Deno.test("bf16: RNE ties both directions on normal values", () => {
  const got = f32ToBf16(
    new Float32Array([f32(0x3f808000), f32(0x3f818000), f32(0xbf808000), f32(0xbf818000)]),
  );
  assert.deepEqual([...got], [0x3f80, 0x3f82, 0xbf80, 0xbf82]);
});

Deno.test("e4m3: documented saturation (satfinite) at ±448", () => {
  const got = f32ToFp8E4M3(new Float32Array([448, 464, 480, 1e6, -1e30, Infinity, -Infinity, 447]));
  assert.deepEqual([...got], [0x7e, 0x7e, 0x7e, 0x7e, 0xfe, 0x7e, 0xfe, 0x7e]);
});

Deno.test("encodeFloats / decodeFloats round-trip exactly and check sizes", () => {
  const xs = new Float32Array([0, -0, 1.5, -2.25, 3.0e-5, 100]);
  for (const fmt of ["bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"] as const) {
    const bytes = encodeFloats(xs, fmt);
    const back = decodeFloats(bytes, fmt);
    assert.deepEqual(encodeFloats(back, fmt), bytes, fmt);
  }
  assert.deepEqual(decodeFloats(encodeFloats(xs, "fp32"), "fp32"), xs);
  // Unaligned input is copied, not misread.
  const unaligned = new Uint8Array(9).subarray(1);
  unaligned.set(new Uint8Array(new Float32Array([1, 2]).buffer));
  assert.deepEqual([...decodeFloats(unaligned, "fp32")], [1, 2]);
  assert.throws(() => decodeFloats(new Uint8Array(3), "fp16"), RangeError);
  assert.throws(() => f32ToFp16(xs, new Uint16Array(2)), RangeError);
});

Deno.test("narrowing 10M elements is fast enough for benchmarks (< 2 s each)", () => {
  const xs = new Float32Array(10_000_000);
  for (let i = 0; i < xs.length; i++) xs[i] = (i % 1000) * 0.013 - 6;
  for (const fn of [f32ToBf16, f32ToFp16, f32ToFp8E4M3, f32ToFp8E5M2]) {
    const t0 = performance.now();
    fn(xs);
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `${fn.name} took ${ms.toFixed(0)} ms`);
  }
});
