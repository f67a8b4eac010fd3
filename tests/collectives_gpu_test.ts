// GPU collectives through the launcher (one process per GPU): compressed schedule == uncompressed schedule ==
// plain NCCL, bit for bit (tests/collectives_gpu_worker.ts), on 2 GPUs, and on one rank of one GPU (NCCL's
// single-rank communicator: every collective a copy). Without enough GPUs, a visible SKIP line.
import { launch } from "../src/launch.ts";
import { cudaDeviceCount } from "../mod.ts";

let gpus = 0;
let why = "";
try {
  gpus = cudaDeviceCount();
  why = `${gpus} GPU(s)`;
} catch (e) {
  why = e instanceof Error ? e.message : String(e);
}
const worker = new URL("./collectives_gpu_worker.ts", import.meta.url).pathname;
for (const n of [1, 2]) {
  const ranks = n > 1 ? `${n} ranks` : "1 rank", needs = n > 1 ? `${n} GPUs` : "1 GPU";
  const name = `GPU collectives on ${ranks}: always == plainSchedule == NCCL, bit for bit`;
  if (gpus < n) console.log(`SKIP (needs ${needs}): ${name} [${why}]`);
  Deno.test({
    name,
    ignore: gpus < n,
    fn: async () => {
      const result = await launch({ n, script: worker, timeoutMs: 240_000 });
      if (!result.ok) throw new Error(result.message);
    },
  });
}
