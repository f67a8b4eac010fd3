/**
 * Order-0 entropy of the two planes the codec splits a tensor into, and the compression-ratio bounds
 * that follow. The split is the one of docs/FORMAT.md: each 2- or 4-byte element is rotated left by one
 * bit within its width; the top byte of the rotated value is the symbol, the low width − 1 bytes the
 * remainder. One-byte dtypes (bytes, fp8) are symbols only.
 *
 * A ratio here is compressed size / raw size (lower is better), ignoring headers and tables:
 *
 * - `boundRatio` = (H_sym + 8·(w − 1)) / (8·w): the symbol plane coded at its order-0 entropy H_sym
 *   (bits per element), the remainder stored raw. This is what the codec aims at (issue #2's bar for
 *   bf16 is (8 + H_exp) / 16).
 * - `bothPlanesBoundRatio`: the remainder bytes coded at their order-0 entropy too, when that is less
 *   than 8 bits a byte: (H_sym + (w − 1)·min(8, H_rem)) / (8·w).
 * - `blockBoundRatio`: like boundRatio but with one frequency table per block of 2^log2Block elements
 *   (as the codec does), each block at its own entropy. It is at most boundRatio; the gap shows how
 *   non-stationary the data is.
 *
 * The entropies are of the empirical distribution: they bound any coder that codes each symbol
 * independently with a table fitted to the data, not coders that model context.
 * @module
 */
import { type DType, dtypeWidth } from "./dtype.ts";

/** Histograms of a tensor's planes: 256 counts each. */
export interface PlaneHistograms {
  /** Counts of symbol-plane bytes (one per element). */
  symbol: Float64Array;
  /** Counts of remainder-plane bytes (width − 1 per element; all zero for one-byte dtypes). */
  remainder: Float64Array;
}

/** The entropy of each plane and the bounds, for one tensor. */
export interface PlaneEntropy {
  /** The element type the bytes were read as. */
  dtype: DType;
  /** Elements. */
  count: number;
  /** Bytes per element. */
  width: number;
  /** Order-0 entropy of the symbol plane, bits per symbol (= per element). */
  symbolEntropyBits: number;
  /** Order-0 entropy of the remainder plane's bytes, bits per byte (0 for one-byte dtypes). */
  remainderEntropyBits: number;
  /** Mean over blocks of each block's own symbol entropy, weighted by block length (bits per symbol). */
  blockSymbolEntropyBits: number;
  /** (H_sym + 8·(w − 1)) / (8·w): symbol plane entropy-coded, remainder raw. */
  boundRatio: number;
  /** (H_sym + (w − 1)·min(8, H_rem)) / (8·w): both planes entropy-coded where that pays. */
  bothPlanesBoundRatio: number;
  /** Like boundRatio with one table per block of 2^log2Block elements. */
  blockBoundRatio: number;
}

/** Options of planeEntropy. */
export interface PlaneEntropyOptions {
  /** Block size for blockBoundRatio, as log2 of elements; default 14 (the codec's default). */
  log2Block?: number;
}

/** Shannon entropy in bits per symbol of a histogram (0 for an empty or one-symbol histogram). */
export function entropyBits(counts: ArrayLike<number>): number {
  let total = 0;
  for (let s = 0; s < counts.length; s++) total += counts[s];
  if (total === 0) return 0;
  let h = 0;
  for (let s = 0; s < counts.length; s++) {
    const c = counts[s];
    if (c > 0) h -= c * Math.log2(c / total);
  }
  return h / total;
}

/** The element bit patterns of raw little-endian bytes, as a typed array of the dtype's width. */
function elements(bytes: Uint8Array, width: number): Uint8Array | Uint16Array | Uint32Array {
  if (bytes.length % width !== 0) {
    throw new RangeError(`${bytes.length} bytes is not a whole number of ${width}-byte elements`);
  }
  if (width === 1) return bytes;
  const aligned = bytes.byteOffset % width === 0 ? bytes : bytes.slice();
  const n = bytes.length / width;
  return width === 2
    ? new Uint16Array(aligned.buffer, aligned.byteOffset, n)
    : new Uint32Array(aligned.buffer, aligned.byteOffset, n);
}

/**
 * Adds the plane bytes of elements [from, to) to the histograms. Rotating left by one moves the sign
 * to bit 0: the symbol is the rotated value's top byte, the remainder its low bytes.
 */
function countRange(
  el: Uint8Array | Uint16Array | Uint32Array,
  width: number,
  from: number,
  to: number,
  sym: Float64Array,
  rem: Float64Array | null,
): void {
  if (width === 1) {
    for (let i = from; i < to; i++) sym[el[i]]++;
  } else if (width === 2) {
    for (let i = from; i < to; i++) {
      const v = el[i];
      sym[(v >>> 7) & 0xff]++;
      if (rem) rem[((v << 1) | (v >>> 15)) & 0xff]++;
    }
  } else {
    for (let i = from; i < to; i++) {
      const v = el[i];
      sym[(v >>> 23) & 0xff]++;
      if (rem) {
        const r = (v << 1) | (v >>> 31);
        rem[r & 0xff]++;
        rem[(r >>> 8) & 0xff]++;
        rem[(r >>> 16) & 0xff]++;
      }
    }
  }
}

/** The symbol and remainder histograms of raw bytes of `dtype` (split as in docs/FORMAT.md). */
export function planeHistograms(bytes: Uint8Array, dtype: DType): PlaneHistograms {
  const width = dtypeWidth(dtype);
  const el = elements(bytes, width);
  const symbol = new Float64Array(256), remainder = new Float64Array(256);
  countRange(el, width, 0, el.length, symbol, remainder);
  return { symbol, remainder };
}

/** Plane entropies and ratio bounds of raw little-endian bytes of `dtype`. */
export function planeEntropy(bytes: Uint8Array, dtype: DType, opts: PlaneEntropyOptions = {}): PlaneEntropy {
  const width = dtypeWidth(dtype);
  const log2Block = opts.log2Block ?? 14;
  if (!Number.isInteger(log2Block) || log2Block < 0 || log2Block > 30) {
    throw new RangeError(`log2Block must be an integer in 0..30, got ${log2Block}`);
  }
  const el = elements(bytes, width);
  const count = el.length;
  const { symbol, remainder } = planeHistograms(bytes, dtype);
  const hSym = entropyBits(symbol);
  const hRem = width > 1 ? entropyBits(remainder) : 0;

  const block = 2 ** log2Block;
  const local = new Float64Array(256);
  let blockBits = 0;
  for (let from = 0; from < count; from += block) {
    const to = Math.min(count, from + block);
    local.fill(0);
    countRange(el, width, from, to, local, null);
    blockBits += entropyBits(local) * (to - from);
  }
  const hBlock = count > 0 ? blockBits / count : 0;

  const remBits = 8 * (width - 1);
  return {
    dtype,
    count,
    width,
    symbolEntropyBits: hSym,
    remainderEntropyBits: hRem,
    blockSymbolEntropyBits: hBlock,
    boundRatio: (hSym + remBits) / (8 * width),
    bothPlanesBoundRatio: (hSym + (width - 1) * Math.min(8, hRem)) / (8 * width),
    blockBoundRatio: (hBlock + remBits) / (8 * width),
  };
}
