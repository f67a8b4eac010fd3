// Scale check of the collective schedules on the CPU (issue #6's part that needs no GPU): every rank is
// a thread over the in-process transport with the CPU codec, 2..64 ranks. For each size of ring it runs
// the compressed and the plain schedule of all-reduce (bf16 sum), reduce-scatter and all-gather on the
// same Gaussian inputs and reports: bit-identical results, wire bytes of the compressed run as a fraction
// of the plain run's, messages, wall time. Wall time here is CPU threads on this machine, not a GPU
// figure. Usage: deno run -A bench/collectives_sim.ts [--ranks 2,4,8,16,32,64] [--elems 65536]
//   [--json bench/results/collectives/sim-scale.json]
import { parseArgs } from "node:util";
import { type CollectiveKind, simulateCollective } from "../src/collectives.ts";
import { makeDataset } from "./data/synthetic.ts";

const { values } = parseArgs({
  options: {
    ranks: { type: "string", default: "2,4,8,16,32,64" },
    elems: { type: "string", default: "65536" },
    json: { type: "string" },
  },
});
const ranksList = values.ranks.split(",").map(Number);
const elems = Number(values.elems); // elements per rank's share (NCCL count for all-gather/reduce-scatter)
const kinds: CollectiveKind[] = ["allReduce", "reduceScatter", "allGather"];

function equal(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length &&
    a.every((x, i) => x.length === b[i].length && x.every((v, j) => v === b[i][j]));
}

const rows = [];
console.log(
  "kind           ranks  count/rank  identical  wire(compressed/plain)  messages  ms(compr)  ms(plain)",
);
for (const n of ranksList) {
  for (const kind of kinds) {
    // all-reduce: every rank holds count = n * elems elements; reduce-scatter: n * elems in, elems out;
    // all-gather: elems in, n * elems out.
    const count = kind === "allGather" || kind === "reduceScatter" ? elems : n * elems;
    const inElems = kind === "allGather" ? elems : n * elems;
    const inputs = Array.from({ length: n }, (_, r) => makeDataset("gaussian", "bf16", inElems, 1000 + r));
    const args = { kind, inputs, dtype: "bf16" as const, count, op: "sum" as const };
    let t = performance.now();
    const c = simulateCollective({ ...args, compress: true });
    const msC = performance.now() - t;
    t = performance.now();
    const p = simulateCollective({ ...args, compress: false });
    const msP = performance.now() - t;
    const identical = equal(c.outputs, p.outputs);
    const wire = c.bytesSent / p.bytesSent;
    rows.push({
      kind,
      ranks: n,
      countPerRank: elems,
      identical,
      wireFraction: wire,
      bytesCompressed: c.bytesSent,
      bytesPlain: p.bytesSent,
      messages: c.messages,
      msCompressed: msC,
      msPlain: msP,
    });
    console.log(
      `${kind.padEnd(14)} ${String(n).padStart(5)}  ${String(elems).padStart(10)}  ${
        String(identical).padStart(9)
      }  ` +
        `${wire.toFixed(3).padStart(22)}  ${String(c.messages).padStart(8)}  ${
          msC.toFixed(0).padStart(9)
        }  ` +
        `${msP.toFixed(0).padStart(9)}`,
    );
  }
}
if (values.json) {
  Deno.writeTextFileSync(
    values.json,
    JSON.stringify(
      {
        what:
          "CPU simulation of the collective schedules (threads, in-process transport, CPU codec); not a GPU run",
        date: new Date().toISOString(),
        command: `deno run -A bench/collectives_sim.ts --ranks ${values.ranks} --elems ${elems}`,
        dtype: "bf16",
        data: "gaussian(0, 0.02), a different seed per rank",
        rows,
      },
      null,
      1,
    ),
  );
}
if (rows.some((r) => !r.identical)) {
  console.error("error: a compressed run differed from the plain schedule");
  Deno.exit(1);
}
