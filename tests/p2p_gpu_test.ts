// GPU P2P suite: transfers to self need 1 GPU, the rest 2 (and NCCL); with fewer it prints a visible SKIP
// line. Ranks run through the launcher (tests/fixtures/p2p_rank.ts and p2p_self_rank.ts do the checking).
import assert from "node:assert/strict";
import { cudaDeviceCount } from "../mod.ts";
import { launch } from "../src/launch.ts";

let gpus = 0;
let why = "";
try {
  gpus = cudaDeviceCount();
  why = `${gpus} CUDA device(s)`;
} catch (e) {
  why = e instanceof Error ? e.message : String(e);
}
const SCRIPT = new URL("./fixtures/p2p_rank.ts", import.meta.url).pathname;
const SELF_SCRIPT = new URL("./fixtures/p2p_self_rank.ts", import.meta.url).pathname;

function gpuN(n: number, name: string, fn: () => Promise<void>) {
  if (gpus < n) console.log(`SKIP (needs ${n} GPU${n > 1 ? "s" : ""}): ${name} [${why}]`);
  Deno.test({ name, ignore: gpus < n, fn });
}
const gpu2 = (name: string, fn: () => Promise<void>) => gpuN(2, name, fn);

async function run(mode: string, timeoutMs: number, graceMs = 2000, n = 2, script = SCRIPT) {
  const lines: string[] = [];
  const result = await launch({
    n,
    script,
    args: [mode],
    timeoutMs,
    graceMs,
    env: { NCCL_NVLS_ENABLE: "0" },
    onLine: (r, _s, l) => {
      lines.push(`[rank ${r}] ${l}`);
      console.log(`[rank ${r}] ${l}`);
    },
  });
  return { result, lines };
}

gpuN(
  1,
  "p2p to self on one GPU: bit-exact, the compressed pipeline's wire bytes are the CPU codec's chunks, unpaired self ops refused",
  async () => {
    const { result, lines } = await run("self", 300000, 2000, 1, SELF_SCRIPT);
    assert.equal(result.ok, true, result.message);
    assert.ok(lines.some((l) => l.includes("SELF OK")), "the rank did not report its checks");
  },
);

gpu2(
  "p2p: bit-exact delivery, every dtype, odd and tiny sizes, all policies, batches; auto learns from the wire",
  async () => {
    const { result, lines } = await run("exact", 400000);
    assert.equal(result.ok, true, result.message);
    assert.ok(lines.some((l) => l.includes("EXACT OK")), "rank 1 did not report its checks");
    assert.ok(
      lines.some((l) => l.includes("AUTO LEARNS OK")),
      "auto did not learn that noise does not compress",
    );
  },
);

gpu2("p2p: a peer SIGKILLed mid-transfer ends the transfer with an error, not a hang", async () => {
  const t0 = performance.now();
  // graceMs: rank 0 ignores the launcher's SIGTERM; SIGKILL would come only after 60 s.
  const { result, lines } = await run("kill", 90000, 60000);
  const ms = performance.now() - t0;
  assert.ok(lines.some((l) => l.startsWith("[rank 1] rank 1: first transfer done")), lines.join("\n"));
  assert.ok(lines.some((l) => l.startsWith("[rank 0] GOT ERROR")), lines.join("\n"));
  assert.ok(lines.some((l) => l.startsWith("[rank 0] DESTROYED")), lines.join("\n"));
  assert.equal(result.ranks[1].signal, "SIGKILL");
  assert.equal(result.ranks[0].code, 0, "rank 0 did not exit on its own after the error");
  assert.ok(ms < 45000, `took ${Math.round(ms)} ms`);
});
