/**
 * The "auto" compression policy: compress a transfer only where it is predicted to be faster than
 * plain NCCL, so that "auto" is never slower than plain beyond noise.
 *
 * Model (times in seconds, B = raw bytes, r = expected compressed/raw ratio, L = link bandwidth of the
 * peer pair, C/D = GPU compress/decompress bandwidth of raw bytes, c = chunk bytes, n = chunks):
 *
 *     plain      = B / L + latency
 *     compressed = max(B / C, r·B / L, B / D)      (the chunked pipeline's bottleneck stage)
 *                + min(c, B) · (1/C + 1/D)         (fill and drain: first compress, last decode)
 *                + n · stepCost + latency           (two NCCL steps and a header per chunk)
 *
 * compress iff B >= minBytes and compressed · margin < plain. The decision must be the same on both
 * sides of a transfer, so every input is known to both: L, C and D are measured together by
 * {@linkcode Policy.calibrate} (both ranks call it; the numbers are exchanged and the slower side's
 * taken) or given, and r is a per-dtype expectation (or given), never a look at the data one side holds.
 *
 * @module
 */
import type { DType } from "./dtype.ts";

/** Expected compressed/raw ratios of real weights and activations per dtype (split layout). */
export const DEFAULT_RATIOS: Record<DType, number> = {
  bytes: 1,
  bf16: 0.68,
  fp16: 0.84,
  fp32: 0.82,
  fp8e4m3: 0.9,
  fp8e5m2: 0.85,
};

/** What the model needs about one peer pair. */
export interface LinkModel {
  /** Plain NCCL send/recv bandwidth between the pair, bytes/s. */
  linkBps: number;
  /** GPU compression bandwidth (raw bytes/s), the slower of the two sides. */
  compressBps: number;
  /** GPU decompression bandwidth (raw bytes/s), the slower of the two sides. */
  decompressBps: number;
}

/** Tunables of the decision. */
export interface PolicyOptions {
  /** Required predicted gain: compressed · margin < plain (default 1.15). */
  margin?: number;
  /** Messages smaller than this always go plain (default 4 MiB). */
  minBytes?: number;
  /** Per-chunk cost of the pipeline, s (default 200 µs: measured on 2×H200, NCCL 2.28, commit 14e5e48). */
  stepCost?: number;
  /** Chunk size of the pipeline, bytes (default 16 MiB, as the engine). */
  chunkBytes?: number;
  /** Expected ratios per dtype (default {@linkcode DEFAULT_RATIOS}). */
  ratios?: Partial<Record<DType, number>>;
}

/** A prediction and the decision taken from it. */
export interface Decision {
  compress: boolean;
  plainSeconds: number;
  compressedSeconds: number;
  reason: string;
}

/** The auto policy of one process: link models per peer, and the decision rule. */
export class Policy {
  readonly margin: number;
  readonly minBytes: number;
  readonly stepCost: number;
  readonly chunkBytes: number;
  readonly ratios: Record<DType, number>;
  #links = new Map<number, LinkModel>();

  /** Creates a policy with the given tunables. */
  constructor(opts: PolicyOptions = {}) {
    this.margin = opts.margin ?? 1.15;
    this.minBytes = opts.minBytes ?? 4 << 20;
    this.stepCost = opts.stepCost ?? 200e-6;
    this.chunkBytes = opts.chunkBytes ?? 16 << 20;
    this.ratios = { ...DEFAULT_RATIOS, ...opts.ratios };
  }

  /** Sets (tells) the model of the pair with `peer`. Both sides must tell the same numbers. */
  setLink(peer: number, model: LinkModel): void {
    for (const [k, v] of Object.entries(model)) {
      if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${k} must be a positive number, got ${v}`);
    }
    this.#links.set(peer, { ...model });
  }

  /** The model of the pair with `peer`, if measured or told. */
  link(peer: number): LinkModel | undefined {
    return this.#links.get(peer);
  }

  /** Predicts both ways of moving `bytes` of `dtype` to/from `peer` and decides. */
  decide(bytes: number, dtype: DType, model: LinkModel | undefined): Decision {
    const latency = 20e-6;
    if (model === undefined) {
      return { compress: false, plainSeconds: NaN, compressedSeconds: NaN, reason: "no link model" };
    }
    const plain = bytes / model.linkBps + latency;
    const r = this.ratios[dtype];
    const chunks = Math.max(1, Math.ceil(bytes / this.chunkBytes));
    const fill = Math.min(this.chunkBytes, bytes) * (1 / model.compressBps + 1 / model.decompressBps);
    const compressed =
      Math.max(bytes / model.compressBps, (r * bytes) / model.linkBps, bytes / model.decompressBps) +
      fill + chunks * this.stepCost + latency;
    if (bytes < this.minBytes) {
      return { compress: false, plainSeconds: plain, compressedSeconds: compressed, reason: "small message" };
    }
    const compress = compressed * this.margin < plain;
    return {
      compress,
      plainSeconds: plain,
      compressedSeconds: compressed,
      reason: compress ? "predicted faster" : "not predicted faster by the margin",
    };
  }
}
