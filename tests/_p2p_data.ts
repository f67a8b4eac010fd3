// Deterministic payloads of the GPU P2P tests (tests/fixtures/p2p_rank.ts and p2p_self_rank.ts share them).
import type { DType } from "../src/dtype.ts";
import { makeDataset } from "../bench/data/synthetic.ts";

/** Gaussian weights-like data with a sprinkle of raw random bit patterns (NaNs, -0, Inf included). */
export function p2pData(dtype: DType, count: number, seed: number): Uint8Array {
  const out = makeDataset("gaussian", dtype, count, seed);
  const rnd = makeDataset("random", dtype, Math.min(count, 4096), seed + 1);
  out.set(rnd.subarray(0, Math.min(rnd.length, out.length >> 3)), 0);
  return out;
}

/** The first index where a and b differ: -1 when equal, -2 when their lengths differ. */
export function firstDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}
