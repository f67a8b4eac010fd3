// The compressed P2P pipeline on one GPU: transfers to self (NCCL's send/receive to self on a single-rank
// communicator) compressed ("always") against plain ("never", NCCL's own copy) in the same run. There is no
// link here, so this measures what the pipeline itself costs: the first compress, the chunks' codec stages
// and the last decode, the host's posting. It compares builds (UZIP_LIB) of the engine on one GPU, not
// compression's gain over a network (bench/p2p.ts on two GPUs does that).
//   deno task launch -n 1 bench/p2p_self.ts [--sizes 4MiB,16MiB,64MiB,256MiB] [--dtype bf16] [--reps 9]
//     [--out DIR] [--tag NAME] [--commit SHA]
// One measurement: CUDA events on the stream around one batch (send and receive to self), after one
// untimed batch; the modes take turns; median of --reps. Then a delivery into a poisoned buffer is compared
// byte for byte with the data. Prints a table and writes p2p-self-<tag>-<UTC time>.json into --out.
import { parseArgs } from "node:util";
import { Communicator, ncclVersion } from "../src/comm.ts";
import { CudaEvent, DeviceBuffer, deviceInfo, Stream } from "../src/device.ts";
import { type DType, dtypeWidth, isDType } from "../src/dtype.ts";
import { type CompressMode, p2p } from "../src/p2p.ts";
import { makeDataset } from "./data/synthetic.ts";
import { formatBytes, formatTable, median, parseBytes } from "./stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "4MiB,16MiB,64MiB,256MiB" },
    dtype: { type: "string", default: "bf16" },
    reps: { type: "string", default: "9" },
    out: { type: "string", default: "bench/out" },
    tag: { type: "string", default: "self" },
    commit: { type: "string", default: Deno.env.get("UZIP_GIT_COMMIT") ?? "unknown" },
  },
});
if (!isDType(values.dtype) || values.dtype === "bytes") {
  throw new Error(`--dtype: a float dtype, got ${values.dtype}`);
}
const dtype: DType = values.dtype;
const reps = Number(values.reps);
const sizes = values.sizes.split(",").map(parseBytes);

using comm = await Communicator.fromLaunch({ timeoutMs: 60000 });
if (comm.size !== 1) throw new Error(`run on one rank (deno task launch -n 1), got ${comm.size}`);
const stream = Stream.create(comm.device);
const t0 = CudaEvent.create(comm.device), t1 = CudaEvent.create(comm.device);
const modes: CompressMode[] = ["never", "always"];
const rows: Record<string, unknown>[] = [];

async function batch(src: DeviceBuffer, dst: DeviceBuffer, mode: CompressMode): Promise<void> {
  await p2p(comm, [
    { kind: "send", buffer: src, dtype, peer: comm.rank },
    { kind: "recv", buffer: dst, dtype, peer: comm.rank },
  ], { compress: mode, stream });
}

for (const bytes of sizes) {
  const count = Math.floor(bytes / dtypeWidth(dtype));
  const data = makeDataset("gaussian", dtype, count, 7);
  const src = DeviceBuffer.alloc(comm.device, data.length),
    dst = DeviceBuffer.alloc(comm.device, data.length);
  src.upload(data, stream);
  const times: Record<string, number[]> = { never: [], always: [] };
  for (const mode of modes) await batch(src, dst, mode); // warm-up (engine, staging, kernels' shapes)
  await comm.synchronize(stream);
  for (let r = 0; r < reps; r++) {
    for (const mode of r % 2 ? [...modes].reverse() : modes) {
      t0.record(stream);
      await batch(src, dst, mode);
      t1.record(stream);
      await comm.synchronize(stream);
      times[mode].push(CudaEvent.elapsedMs(t0, t1) * 1e3);
    }
  }
  for (const mode of modes) { // delivery check
    dst.fill(0xab, stream);
    await batch(src, dst, mode);
    await comm.synchronize(stream);
    const got = dst.download(undefined, stream);
    for (let i = 0; i < got.length; i++) {
      if (got[i] !== data[i]) throw new Error(`${mode} ${formatBytes(bytes)}: byte ${i} differs`);
    }
  }
  const plainUs = median(times.never), zipUs = median(times.always);
  rows.push({ bytes, count, plainUs, compressedUs: zipUs, ratio: plainUs / zipUs, raw: times });
  src.free();
  dst.free();
}

const info = deviceInfo(comm.device), nccl = ncclVersion();
console.log(
  `${info.name}, NCCL ${nccl}, ${dtype}, commit ${values.commit}, UZIP_LIB ${Deno.env.get("UZIP_LIB")}`,
);
console.log(formatTable(
  ["size", "plain (NCCL copy) us", "compressed pipeline us", "plain / compressed"],
  rows.map((r) => [
    formatBytes(r.bytes as number),
    (r.plainUs as number).toFixed(1),
    (r.compressedUs as number).toFixed(1),
    (r.ratio as number).toFixed(3),
  ]),
));
Deno.mkdirSync(values.out, { recursive: true });
const file = `${values.out}/p2p-self-${values.tag}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
Deno.writeTextFileSync(
  file,
  JSON.stringify(
    {
      bench: "p2p_self",
      gpu: info.name,
      nccl,
      commit: values.commit,
      command: `deno task launch -n 1 bench/p2p_self.ts ${Deno.args.join(" ")}`,
      lib: Deno.env.get("UZIP_LIB") ?? null,
      dtype,
      reps,
      rows,
    },
    null,
    1,
  ),
);
console.log(`wrote ${file}`);
stream.destroy();
