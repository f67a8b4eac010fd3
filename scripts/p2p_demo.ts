// One rank of the README's GPU P2P demo (scripts/main.ts launches 2 ranks of it on a machine with >= 2
// GPUs): the real weights of bench/data/weights.ts in each float format, tiled to --mib MiB, sent by
// rank 0 to rank 1 plain (NCCL send/recv), compressed, and with the auto policy. Rank 1 times each way
// (CUDA events around one transfer, a 4-byte barrier before each; the ways take turns, median of 5 after
// a warm-up), checks one more delivery of each way byte for byte, and prints speedups against plain. Exit code 1 on a mismatch.
import { loadModelWeights } from "../bench/data/weights.ts";
import { Communicator } from "../src/comm.ts";
import { encodeFloats, type FloatFormat } from "../src/convert.ts";
import { CudaEvent, DeviceBuffer, Stream } from "../src/device.ts";
import { type CompressMode, defaultPolicy, p2p } from "../src/p2p.ts";

const FORMATS: FloatFormat[] = ["bf16", "fp16", "fp32", "fp8e4m3"];
const mibArg = Deno.args.indexOf("--mib");
const MIB = mibArg >= 0 ? Number(Deno.args[mibArg + 1]) : 256;
const label = Deno.env.get("NCCL_P2P_DISABLE") === "1" ? "NCCL_P2P_DISABLE=1" : "default (NVLink)";

using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
const peer = 1 - comm.rank;
const stream = Stream.create(comm.device);
const weights = await loadModelWeights();
const bytes = MIB << 20;
const buf = DeviceBuffer.alloc(comm.device, bytes);
const bar = [DeviceBuffer.alloc(comm.device, 16), DeviceBuffer.alloc(comm.device, 16)];
const e0 = CudaEvent.create(comm.device), e1 = CudaEvent.create(comm.device);
const kind = comm.rank === 0 ? "send" as const : "recv" as const;

async function barrier() {
  await p2p(comm, [
    { kind: "send", buffer: bar[0], dtype: "bytes", peer, count: 4 },
    { kind: "recv", buffer: bar[1], dtype: "bytes", peer, count: 4 },
  ], { compress: "never", stream });
}

const MODES: CompressMode[] = ["never", "always", "auto"];

/** Median ms of one transfer per mode; the modes take turns in each of 5 repetitions (after a warm-up). */
async function timed(format: FloatFormat): Promise<Record<string, { ms: number; zip: boolean }>> {
  const times: Record<string, number[]> = {};
  const zip: Record<string, boolean> = {};
  for (let i = 0; i < 6; i++) {
    for (const mode of MODES) {
      await barrier();
      e0.record(stream);
      zip[mode] = (await p2p(comm, [{ kind, buffer: buf, dtype: format, peer }], { compress: mode, stream }))
        .compressed[0];
      e1.record(stream);
      await e1.synchronizeAsync();
      if (i > 0) (times[mode] ??= []).push(CudaEvent.elapsedMs(e0, e1));
    }
  }
  await comm.synchronize(stream);
  const out: Record<string, { ms: number; zip: boolean }> = {};
  for (const mode of MODES) {
    const t = times[mode].sort((a, b) => a - b);
    out[mode] = { ms: t[t.length >> 1], zip: zip[mode] };
  }
  return out;
}

const lines: string[][] = [];
let mismatches = 0;
for (const format of FORMATS) {
  const tile = encodeFloats(weights.all, format);
  const n = Math.floor(tile.length / 4) * 4; // whole 32-bit words per tile, for the comparison below
  if (comm.rank === 0) {
    for (let off = 0; off < bytes; off += n) {
      buf.upload(tile.subarray(0, Math.min(n, bytes - off)), stream, off);
    }
  }
  const t = await timed(format);
  const result: Record<string, { ms: number; zip: boolean; exact: boolean }> = {};
  for (const mode of MODES) {
    // Exactness: one more delivery per mode into a poisoned buffer, compared with the weights sent.
    if (comm.rank === 1) buf.fill(0xab, stream);
    await barrier();
    await p2p(comm, [{ kind, buffer: buf, dtype: format, peer }], { compress: mode, stream });
    await comm.synchronize(stream);
    let exact = true;
    if (comm.rank === 1) {
      const got = new Int32Array(buf.download(undefined, stream).buffer);
      const want = new Int32Array(tile.buffer, tile.byteOffset, n >> 2);
      for (let i = 0; i < got.length; i++) {
        if (got[i] !== want[i % want.length]) {
          exact = false;
          break;
        }
      }
    }
    if (!exact) mismatches++;
    result[mode] = { ...t[mode], exact };
  }
  const plain = result.never.ms;
  const gbps = (ms: number) => (bytes / ms / 1e6).toFixed(1);
  lines.push([
    format,
    `${MIB} MiB`,
    gbps(plain),
    `${gbps(result.always.ms)} (${(plain / result.always.ms).toFixed(2)}x)`,
    `${(plain / result.auto.ms).toFixed(2)}x ${result.auto.zip ? "zip" : "plain"}`,
    Object.values(result).every((r) => r.exact) ? "yes" : "NO",
  ]);
}
if (comm.rank === 1) {
  const m = defaultPolicy(comm).link(peer);
  console.log(
    `P2P demo, 2 GPUs, link ${label}: calibrated link ${m ? (m.linkBps / 1e9).toFixed(0) : "?"} GB/s, codec ${
      m ? (m.compressBps / 1e9).toFixed(0) : "?"
    }/${m ? (m.decompressBps / 1e9).toFixed(0) : "?"} GB/s (compress/decompress)`,
  );
  const head = ["dtype", "size", "plain GB/s", "compressed GB/s (vs plain)", "auto (vs plain)", "bit-exact"];
  const w = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l: string[]) => l.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ");
  console.log(fmt(head));
  for (const l of lines) console.log(fmt(l));
}
buf.free();
stream.destroy();
if (mismatches > 0) {
  console.error(`error: ${mismatches} deliveries were not bit-exact`);
  Deno.exit(1);
}
