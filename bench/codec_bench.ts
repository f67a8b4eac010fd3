// `deno bench` for the codec: the CPU codec (one thread) on bf16 Gaussian data and real weights, and the
// GPU codec at 256 MiB when a GPU is present, each group with a plain copy of the same size as its
// baseline. Without a GPU the GPU benches are registered as ignored and a SKIP line is printed.
//
//   deno bench -A bench/codec_bench.ts
//   deno bench -A --no-check --filter gpu bench/codec_bench.ts   # where node_modules is absent (GPU box)
//
// Throughput = bytes in the bench name / time per iteration. For sweeps, tables, JSON and charts use
// the CLI: deno run -A bench/codec.ts --help.

import { Buffer } from "node:buffer";
import { compress, decompress } from "../src/codec.ts";
import { cudaDeviceCount } from "../src/device.ts";
import { makePattern, tile } from "./codec_data.ts";
import { GpuCodecBench, type Prepared } from "./codec_gpu.ts";

const MiB = 1 << 20;

// CPU: 16 MiB of bf16 N(0, 0.02^2), and the real model weights converted to bf16 (the whole model).
const gaussian = tile((await makePattern("gaussian", "bf16", 16 * MiB, 16 * MiB)).bytes, 16 * MiB);
const weights = (await makePattern("weights", "bf16", Infinity, Infinity)).bytes;

function cpuGroup(label: string, input: Uint8Array<ArrayBuffer>): void {
  const stream = compress(input, "bf16");
  const out = new Uint8Array(input.byteLength);
  if (Buffer.compare(decompress(stream, out), input) !== 0) throw new Error(`${label}: round trip differs`);
  const copy = new Uint8Array(input.byteLength);
  const group = `cpu ${label}`;
  Deno.bench({ name: `cpu memcpy ${label}`, group, baseline: true, fn: () => copy.set(input) });
  Deno.bench({ name: `cpu compress ${label}`, group, fn: () => void compress(input, "bf16") });
  Deno.bench({ name: `cpu decompress ${label}`, group, fn: () => void decompress(stream, out) });
}

cpuGroup("bf16 gaussian 16 MiB", gaussian);
cpuGroup(`bf16 weights ${(weights.byteLength / MiB).toFixed(2)} MiB`, weights);

// GPU: 256 MiB bf16 Gaussian on device 0, whole chip.
let devices = 0;
let why = "";
try {
  devices = cudaDeviceCount();
  if (devices === 0) why = "no CUDA device";
} catch (e) {
  why = (e as Error).message;
}
const GPU_SIZE = 256 * MiB;
const gpuNames = ["gpu copy (D2D)", "gpu compress", "gpu decompress"].map((n) =>
  `${n} bf16 gaussian 256 MiB`
);

if (devices === 0) {
  console.log(`SKIP GPU codec benches (${gpuNames.join("; ")}): ${why}`);
  for (const name of gpuNames) {
    Deno.bench({ name, group: "gpu bf16 gaussian 256 MiB", ignore: true, fn() {} });
  }
} else {
  const gpu = new GpuCodecBench(0);
  const pattern = await makePattern("gaussian", "bf16", GPU_SIZE, 16 * MiB);
  const p: Prepared = gpu.prepare(pattern, GPU_SIZE);
  // One checked measurement first: a bench of a broken codec must fail, not report a speed.
  const check = gpu.measure(p, 0, 1, 1, false);
  if (!check.verified.roundTrip || !check.verified.sameSizeAllSms) {
    throw new Error(`GPU round trip failed: ${JSON.stringify(check.verified)}`);
  }
  const { codec, stream } = gpu;
  const [input, compressed, output] = [p.inputs[0], p.streams[0], p.outputs[0]];
  const group = "gpu bf16 gaussian 256 MiB";
  const timed = (fn: () => void) => (b: Deno.BenchContext) => {
    b.start();
    fn();
    stream.synchronize();
    b.end();
  };
  Deno.bench({
    name: gpuNames[0],
    group,
    baseline: true,
    fn: timed(() => output.copyFrom(input, GPU_SIZE, stream)),
  });
  Deno.bench({
    name: gpuNames[1],
    group,
    fn: timed(() => codec.compress(input, p.count, "bf16", compressed, stream)),
  });
  Deno.bench({
    name: gpuNames[2],
    group,
    fn: timed(() => codec.decompress(compressed, p.compressedBytes, output, stream, { dtype: "bf16" })),
  });
  globalThis.addEventListener("unload", () => {
    gpu.release(p);
    gpu.dispose();
  });
}
