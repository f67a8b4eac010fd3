/**
 * The "auto" compression policy: compress a transfer only where it is predicted to be faster than
 * plain NCCL, so that "auto" is never slower than plain beyond noise.
 *
 * Model (times in seconds, B = raw bytes, r = expected compressed/raw ratio, L = link bandwidth of the
 * peer pair, C/D = GPU compress/decompress bandwidth of raw bytes, c₀/cₙ = first/last chunk bytes, n = chunks, s = the
 * measured cost of one pipeline step beyond the model):
 *
 *     plain      = B / L + latency
 *     compressed = max(B / C, r·B / L, B / D)      (the chunked pipeline's bottleneck stage)
 *                + c₀/C + cₙ/D                     (fill and drain: first compress, last decode)
 *                + (n + 2) · s + latency            (a head and a body group per chunk, LAG 2)
 *
 * compress iff B >= minBytes, min(C, D) >= minCodecToLink · L, and compressed · margin < plain. The
 * codec-to-link rule keeps fast links plain: the codec's bandwidth is measured alone, but in a transfer
 * it shares SMs and memory bandwidth with NCCL's kernels, so on NVLink (~360 GB/s on H200) compression
 * cannot pay unless the codec is many times faster than the link. The decision must be the same on
 * both sides of a transfer, so every input is known to both: L, C, D and s are measured together by
 * `calibrate` in src/p2p.ts (both ranks call it; the numbers are exchanged, the receiver's link and step
 * times and the slower codec kept) or given with {@linkcode Policy.setLink}, and r is never a look at the
 * data one side holds: a per-dtype expectation (or given) until the pair has moved that dtype compressed
 * in that direction, then what those transfers measured (the coded bytes on the wire, which both sides
 * see alike, in the same order: {@linkcode Policy.observe}). When the measured ratio sends a transfer
 * plain that the expectation would compress, every `reprobeEvery`-th such transfer is still compressed,
 * so that data that became compressible again is noticed (both sides count alike).
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
  /** Measured cost of one pipeline step beyond the model, s (default: the policy's stepCost). */
  stepSeconds?: number;
}

/** Chunks per message before the size limits (nccl/p2p.h P2P_CHUNKS_PER_MESSAGE). */
const CHUNKS_PER_MESSAGE = 2;

/** One chunk of a compressed message: elements and log2 of its codec block. */
export interface PlannedChunk {
  count: number;
  log2Block: number;
}

/**
 * The chunks the engine cuts a compressed message into (mirrors nccl/p2p_plan.cc p2pChunkPlan): a base chunk
 * of about half the message, >= 4 MiB and <= chunkBytes, in whole 2^14-element blocks, repeated
 * (the last one shorter); chunks of at most 16 MiB use 2^12-element blocks (shorter codec latency for the
 * pipeline's fill and drain).
 */
export function chunkPlan(bytes: number, width: number, chunkBytes: number): PlannedChunk[] {
  const count = Math.floor(bytes / width);
  const block = 1 << 14;
  const target = Math.max(Math.floor(count / CHUNKS_PER_MESSAGE), Math.floor((4 << 20) / width));
  const limit = Math.max(Math.floor(chunkBytes / width), block);
  const base = Math.max(block, Math.floor(Math.min(target, limit) / block) * block);
  const plan: PlannedChunk[] = [];
  for (let off = 0; off < count; off += base) {
    const n = Math.min(base, count - off);
    plan.push({ count: n, log2Block: n * width <= (16 << 20) ? 12 : 14 });
  }
  return plan;
}

/** Number of chunks of {@linkcode chunkPlan}. */
export function chunkCount(bytes: number, width: number, chunkBytes: number): number {
  return chunkPlan(bytes, width, chunkBytes).length;
}

/** Tunables of the decision. */
export interface PolicyOptions {
  /**
   * Required predicted gain: compressed · margin < plain (default 1.08). The model is pessimistic: on
   * 2×H200 with NCCL_P2P_DISABLE=1 (bf16, 16 MiB-1 GiB) the measured compressed time was 7-12% under the
   * prediction (bench/results/h200x2-2026-11-30T1828-session4), and the compressed 64 MiB transfers that
   * 1.15 sent plain measured 1.19-1.28x plain there.
   */
  margin?: number;
  /** Messages smaller than this always go plain (default 4 MiB). */
  minBytes?: number;
  /** Per-step cost when the link model has no measured one, s (default 50 µs). */
  stepCost?: number;
  /** Largest chunk of the pipeline, bytes (default 32 MiB, as the engine). */
  chunkBytes?: number;
  /** Compress only when min(C, D) >= this × L (default 8). */
  minCodecToLink?: number;
  /** Expected ratios per dtype (default {@linkcode DEFAULT_RATIOS}). */
  ratios?: Partial<Record<DType, number>>;
  /** Of the transfers that only a measured ratio keeps plain, compress every this many (default 32). */
  reprobeEvery?: number;
}

/** The direction of a transfer, seen from this rank. */
export type Direction = "send" | "recv";

/** A prediction and the decision taken from it. */
export interface Decision {
  /** Whether the transfer goes compressed. */
  compress: boolean;
  /** Predicted seconds of a plain NCCL transfer. */
  plainSeconds: number;
  /** Predicted seconds of the compressed pipeline. */
  compressedSeconds: number;
  /** Why, in words (for logs and benchmarks). */
  reason: string;
}

/** The auto policy of one process: link models per peer, and the decision rule. */
export class Policy {
  /** Predicted speed-up the compressed path must reach before it is chosen. */
  readonly margin: number;
  /** Messages under this many bytes always go plain. */
  readonly minBytes: number;
  /** Fixed cost of one pipeline step, seconds (used until a measured model exists). */
  readonly stepCost: number;
  /** Pipeline chunk size, bytes. */
  readonly chunkBytes: number;
  /** The codec must be at least this many times faster than the link. */
  readonly minCodecToLink: number;
  /** Expected compressed/raw ratio per dtype. */
  readonly ratios: Record<DType, number>;
  /** Of the transfers that only a measured ratio keeps plain, every this many is compressed. */
  readonly reprobeEvery: number;
  #links = new Map<number, LinkModel>();
  // Measured wire/raw ratio and re-probe counter per (peer, direction, dtype).
  #observed = new Map<string, { ratio: number; held: number }>();
  // Decisions of the last model seen, by dtype and size: "auto" transfers of one shape repeat, and on
  // fast links (NVLink: a 16 MiB send takes ~60 us) the JS cost of each call is on the critical path.
  #decisions = new Map<string, Decision>();
  #decisionsFor: LinkModel | undefined;

  /** Creates a policy with the given tunables. */
  constructor(opts: PolicyOptions = {}) {
    this.margin = opts.margin ?? 1.08;
    this.minBytes = opts.minBytes ?? 4 << 20;
    this.stepCost = opts.stepCost ?? 50e-6;
    this.chunkBytes = opts.chunkBytes ?? 32 << 20;
    this.minCodecToLink = opts.minCodecToLink ?? 8;
    this.ratios = { ...DEFAULT_RATIOS, ...opts.ratios };
    this.reprobeEvery = opts.reprobeEvery ?? 32;
    if (!(Number.isSafeInteger(this.reprobeEvery) && this.reprobeEvery >= 1)) {
      throw new RangeError(`reprobeEvery must be a positive integer, got ${this.reprobeEvery}`);
    }
  }

  /**
   * Records what a compressed transfer of `rawBytes` of `dtype` with `peer` put on the wire. Both sides
   * of the pair must record the same transfers in the same order (src/p2p.ts does, from the engine's
   * count of coded bytes); the ratio is a running mean that weighs the latest transfer by half.
   */
  observe(peer: number, direction: Direction, dtype: DType, rawBytes: number, wireBytes: number): void {
    if (!(rawBytes > 0) || !(wireBytes > 0) || !Number.isFinite(rawBytes) || !Number.isFinite(wireBytes)) {
      return;
    }
    const key = `${peer}:${direction}:${dtype}`;
    const r = wireBytes / rawBytes, o = this.#observed.get(key);
    this.#observed.set(key, { ratio: o === undefined ? r : (o.ratio + r) / 2, held: o?.held ?? 0 });
  }

  /** The ratio the model uses for transfers of `dtype` with `peer`: measured, else expected. */
  ratioFor(peer: number, direction: Direction, dtype: DType): number {
    return this.#observed.get(`${peer}:${direction}:${dtype}`)?.ratio ?? this.ratios[dtype];
  }

  /**
   * Whether a transfer of `bytes` of `dtype` with `peer` goes compressed: {@linkcode Policy.decide} with
   * the pair's measured ratio, and the re-probe rule. Call it once per transfer, on both sides alike.
   */
  shouldCompress(peer: number, direction: Direction, bytes: number, dtype: DType): boolean {
    const model = this.link(peer);
    const o = this.#observed.get(`${peer}:${direction}:${dtype}`);
    if (o === undefined) return this.decide(bytes, dtype, model).compress;
    if (this.decide(bytes, dtype, model, o.ratio).compress) return true;
    if (!this.decide(bytes, dtype, model).compress) return false; // plain by the expectation too
    o.held++;
    return o.held % this.reprobeEvery === 0;
  }

  /** Sets (tells) the model of the pair with `peer`. Both sides must tell the same numbers. */
  setLink(peer: number, model: LinkModel): void {
    for (const [k, v] of Object.entries(model)) {
      if (k === "stepSeconds" && v === undefined) continue;
      if (!(v >= 0) || !Number.isFinite(v) || (k !== "stepSeconds" && v === 0)) {
        throw new RangeError(`${k} must be a positive number, got ${v}`);
      }
    }
    this.#links.set(peer, { ...model });
  }

  /** The model of the pair with `peer`, if measured or told. */
  link(peer: number): LinkModel | undefined {
    return this.#links.get(peer);
  }

  /** Predicted seconds of a compressed transfer (the pipeline model above), given its step cost. */
  predictCompressed(
    bytes: number,
    ratio: number,
    width: number,
    model: LinkModel,
    stepSeconds: number,
  ): number {
    const plan = chunkPlan(bytes, width, this.chunkBytes);
    const chunks = Math.max(1, plan.length);
    const first = plan.length ? plan[0].count * width : bytes,
      last = plan.length ? plan[plan.length - 1].count * width : bytes;
    return Math.max(bytes / model.compressBps, (ratio * bytes) / model.linkBps, bytes / model.decompressBps) +
      first / model.compressBps + last / model.decompressBps + (chunks + 2) * stepSeconds + 20e-6;
  }

  /**
   * Predicts both ways of moving `bytes` of `dtype` over a link with this model and decides, with `ratio`
   * (default: the dtype's expectation) as the compressed/raw ratio. The model is treated as immutable (decisions are cached per model object; {@linkcode Policy.setLink} stores a
   * copy), and the returned decision is frozen.
   */
  decide(
    bytes: number,
    dtype: DType,
    model: LinkModel | undefined,
    ratio: number = this.ratios[dtype],
  ): Decision {
    if (model === undefined) {
      return { compress: false, plainSeconds: NaN, compressedSeconds: NaN, reason: "no link model" };
    }
    if (model !== this.#decisionsFor || this.#decisions.size >= 4096) {
      this.#decisions.clear();
      this.#decisionsFor = model;
    }
    const key = `${dtype}:${bytes}:${ratio}`;
    let d = this.#decisions.get(key);
    if (d === undefined) {
      this.#decisions.set(key, d = Object.freeze(this.#decide(bytes, dtype, model, ratio)));
    }
    return d;
  }

  #decide(bytes: number, dtype: DType, model: LinkModel, ratio: number): Decision {
    const latency = 20e-6;
    const plain = bytes / model.linkBps + latency;
    const width = WIDTHS[dtype];
    const compressed = this.predictCompressed(bytes, ratio, width, model, model.stepSeconds ?? this.stepCost);
    if (bytes < this.minBytes || dtype === "bytes") {
      return { compress: false, plainSeconds: plain, compressedSeconds: compressed, reason: "small message" };
    }
    if (Math.min(model.compressBps, model.decompressBps) < this.minCodecToLink * model.linkBps) {
      return {
        compress: false,
        plainSeconds: plain,
        compressedSeconds: compressed,
        reason: `codec under ${this.minCodecToLink}x the link`,
      };
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

const WIDTHS: Record<DType, number> = { bytes: 1, bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };
