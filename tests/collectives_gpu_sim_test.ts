// The collective schedules with the GPU backend, on one GPU: `simulateCollective({ gpu: true })` runs every
// rank's backend (GPU codec, GPU reduce and pre-multiply kernels, fused decode-reduce) on the current GPU
// over the in-process transport, for 2..8 ranks, which NCCL cannot put on one GPU. Each GPU result must equal
// the CPU simulation's plain schedule byte for byte; that one is checked against an independent TS reference
// in tests/collectives_sim_test.ts. The modes are the CPU test's: plain, compressed schedule (per-hop
// decode-reduce-encode), the pipelined executor's data flow (every collective), the ring collectives with
// and without the fused decode-reduce, and the direct algorithms (UZIP_COLL_ALGO=direct) on 3 or more
// ranks. Needs a GPU; skipped visibly without one.
import { type CollectiveKind, REDUCE_OPS, type ReduceOp, simulateCollective } from "../src/collectives.ts";
import { bufferBytes, type SimulationArgs } from "../src/collectives.ts";
import type { DType } from "../src/dtype.ts";
import { NoDeviceError, TimeoutError } from "../src/errors.ts";
import { assert, assertEquals, assertInstanceOf, assertThrows } from "./_assert.ts";
import { cudaBuildTest, gpuTest, hasGpu } from "./_gpu.ts";
import { makeInput, WIDTH } from "./_coll_data.ts";
import { RUN_SEED } from "./_seed.ts";

function sameBytes(got: Uint8Array[], want: Uint8Array[], what: string): void {
  assertEquals(got.length, want.length, `${what}: rank count`);
  for (let r = 0; r < want.length; r++) {
    assertEquals(got[r].length, want[r].length, `${what}: rank ${r} length`);
    for (let i = 0; i < want[r].length; i++) {
      if (got[r][i] !== want[r][i]) {
        throw new Error(`${what}: rank ${r}: first difference at byte ${i}: ${got[r][i]} vs ${want[r][i]}`);
      }
    }
  }
}

function withEnv<T>(name: string, value: string, f: () => T): T {
  Deno.env.set(name, value);
  try {
    return f();
  } finally {
    Deno.env.delete(name);
  }
}

const RING: CollectiveKind[] = ["allReduce", "reduceScatter", "allGather"];
let seed = RUN_SEED;

// One case: the CPU plain schedule, then every GPU mode against it. Returns the GPU runs made.
function gpuCase(
  kind: CollectiveKind,
  n: number,
  dtype: DType,
  count: number,
  op: ReduceOp,
  chunkElems: number,
) {
  const { send, recv } = bufferBytes(kind, n, count, dtype);
  const inputs = Array.from({ length: n }, () => makeInput(dtype, send / WIDTH[dtype], seed++));
  const initialOutputs = Array.from({ length: n }, () => new Uint8Array(recv).fill(0xa5));
  const root = (kind === "broadcast" || kind === "reduce") ? seed % n : 0;
  const args: SimulationArgs = { kind, inputs, dtype, count, op, root, chunkElems, initialOutputs };
  const what = `${kind} n=${n} ${dtype} ${op} count=${count} chunk=${chunkElems}`;
  const want = simulateCollective({ ...args, compress: false }).outputs;
  const modes: [string, () => Uint8Array[]][] = [
    ["plain", () => simulateCollective({ ...args, gpu: true, compress: false }).outputs],
    ["compressed schedule", () => simulateCollective({ ...args, gpu: true, compress: true }).outputs],
    ["pipelined", () => simulateCollective({ ...args, gpu: true, compress: "pipelined" }).outputs],
  ];
  if (RING.includes(kind)) {
    if (kind !== "allGather" && WIDTH[dtype] === 2) {
      modes.push([
        "pipelined, fused decode-reduce",
        () =>
          withEnv(
            "UZIP_COLL_FUSE",
            "1",
            () => simulateCollective({ ...args, gpu: true, compress: "pipelined" }).outputs,
          ),
      ]);
    }
    if (n >= 3) {
      const direct = (compress: false | "pipelined") => () =>
        withEnv(
          "UZIP_COLL_ALGO",
          "direct",
          () => simulateCollective({ ...args, gpu: true, compress }).outputs,
        );
      modes.push(["direct plain", direct(false)], ["direct pipelined", direct("pipelined")]);
    }
  }
  for (const [mode, run] of modes) sameBytes(run(), want, `${what}: GPU ${mode} vs CPU plain schedule`);
  return modes.length;
}

gpuTest("GPU simulation: reducing collectives × dtype × op × 2..8 ranks equal the CPU schedules", () => {
  const t0 = performance.now();
  let runs = 0;
  for (const kind of ["allReduce", "reduceScatter", "reduce"] as CollectiveKind[]) {
    for (const n of [2, 3, 4, 8]) {
      for (const dtype of ["bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"] as DType[]) {
        const ops: readonly ReduceOp[] = dtype === "bf16" || dtype === "fp32"
          ? REDUCE_OPS
          : ["sum", "avg", "max"];
        for (const op of ops) {
          for (const [count, chunk] of [[1, 512], [37, 512], [2049, 512], [70001, 8192]]) {
            runs += gpuCase(kind, n, dtype, count, op, chunk);
          }
        }
      }
    }
  }
  console.log(`  ${runs} GPU runs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
});

gpuTest("GPU simulation: moving collectives × dtype × 2..8 ranks equal the CPU schedules", () => {
  let runs = 0;
  for (const kind of ["allGather", "allToAll", "broadcast"] as CollectiveKind[]) {
    for (const n of [2, 3, 5, 8]) {
      for (const dtype of ["bytes", "bf16", "fp32", "fp8e4m3"] as DType[]) {
        for (const [count, chunk] of [[0, 512], [37, 512], [70001, 8192]]) {
          runs += gpuCase(kind, n, dtype, count, "sum", chunk);
        }
      }
    }
  }
  assert(runs > 0);
});

gpuTest("GPU simulation: tensors of many codec blocks, and in place", () => {
  // 2^21 bf16 elements per rank in chunks of 2^20: several codec blocks of 2^14 per segment. (The chunk is
  // given: the CPU and GPU backends' defaults differ, and on 3+ ranks the chunk sets the fold order.)
  for (const n of [3, 4]) {
    for (const op of ["sum", "avg"] as ReduceOp[]) gpuCase("allReduce", n, "bf16", 1 << 21, op, 1 << 20);
  }
  gpuCase("reduceScatter", 4, "fp32", 1 << 19, "sum", 1 << 18);
  gpuCase("allGather", 4, "bf16", 1 << 20, "sum", 1 << 18);
  // NCCL's in-place layouts through the direct algorithms.
  for (const kind of RING) {
    const n = 4, count = 5000, dtype: DType = "bf16";
    const { send } = bufferBytes(kind, n, count, dtype);
    const inputs = Array.from({ length: n }, () => makeInput(dtype, send / 2, seed++));
    const args: SimulationArgs = { kind, inputs, dtype, count, op: "sum", chunkElems: 1024, inPlace: true };
    const want = simulateCollective({ ...args, compress: false }).outputs;
    const got = withEnv(
      "UZIP_COLL_ALGO",
      "direct",
      () => simulateCollective({ ...args, gpu: true, compress: "pipelined" }),
    );
    sameBytes(got.outputs, want, `${kind} in place, direct pipelined on the GPU`);
  }
});

gpuTest("GPU simulation: a missing rank times out, and the GPU backends still work after it", () => {
  for (const kind of ["allReduce", "broadcast", "allToAll"] as CollectiveKind[]) {
    const n = 3, count = 5000;
    const { send } = bufferBytes(kind, n, count, "bf16");
    const inputs = Array.from({ length: n }, () => makeInput("bf16", send / 2, seed++));
    const args: SimulationArgs = { kind, inputs, dtype: "bf16", count, root: n - 1, chunkElems: 1024 };
    for (const compress of [false, "pipelined"] as const) {
      const e = assertThrows(
        () => simulateCollective({ ...args, gpu: true, compress, dropLastRank: true, timeoutMs: 300 }),
        `${kind} ${compress}: expected a timeout`,
      );
      assertInstanceOf(e, TimeoutError, `${kind} ${compress}`);
    }
    // The same case afterwards completes and equals the CPU schedule (no state left behind).
    const want = simulateCollective({ ...args, compress: false }).outputs;
    sameBytes(
      simulateCollective({ ...args, gpu: true, compress: "pipelined" }).outputs,
      want,
      `${kind} after`,
    );
  }
});

if (!hasGpu()) {
  cudaBuildTest("GPU simulation without a GPU is a NoDeviceError", () => {
    const inputs = [new Uint8Array(8), new Uint8Array(8)];
    assertInstanceOf(
      assertThrows(() =>
        simulateCollective({ kind: "allReduce", inputs, dtype: "fp32", count: 2, gpu: true })
      ),
      NoDeviceError,
    );
  });
}
