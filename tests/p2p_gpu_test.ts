// GPU P2P suite: needs 2 GPUs (and NCCL); with fewer it prints a visible SKIP line. Ranks run through
// the launcher (tests/fixtures/p2p_rank.ts does the checking).
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

function gpu2(name: string, fn: () => Promise<void>) {
  if (gpus < 2) console.log(`SKIP (needs 2 GPUs): ${name} [${why}]`);
  Deno.test({ name, ignore: gpus < 2, fn });
}

async function run(mode: string, timeoutMs: number, graceMs = 2000) {
  const lines: string[] = [];
  const result = await launch({
    n: 2,
    script: SCRIPT,
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
