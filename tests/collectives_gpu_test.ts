// GPU collectives on 2 GPUs, through the launcher (one process per GPU): compressed schedule ==
// uncompressed schedule == plain NCCL, bit for bit (tests/collectives_gpu_worker.ts). Needs >= 2 GPUs,
// else a visible SKIP line.
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
const name = "GPU collectives on 2 ranks: always == plainSchedule == NCCL, bit for bit";
if (gpus < 2) console.log(`SKIP (needs 2 GPUs): ${name} [${why}]`);
Deno.test({
  name,
  ignore: gpus < 2,
  fn: async () => {
    const worker = new URL("./collectives_gpu_worker.ts", import.meta.url).pathname;
    const result = await launch({ n: 2, script: worker, timeoutMs: 240_000 });
    if (!result.ok) throw new Error(result.message);
  },
});
