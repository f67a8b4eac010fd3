// The launcher (src/launch.ts), CPU only: ranks, prefixed output, a failing rank's exit code, a hung
// rank killed at the timeout, the loopback rendezvous, and the CLI.
import assert from "node:assert/strict";
import { launch } from "../src/launch.ts";

const SCRIPT = new URL("./fixtures/launch_rank.ts", import.meta.url).pathname;

async function run(n: number, mode: string, timeoutMs = 60000) {
  const lines: string[] = [];
  const t0 = performance.now();
  const result = await launch({
    n,
    script: SCRIPT,
    args: [mode],
    timeoutMs,
    graceMs: 500,
    onLine: (rank, stream, line) => lines.push(`${stream} [rank ${rank}] ${line}`),
  });
  return { result, lines, ms: performance.now() - t0 };
}

for (const n of [2, 3, 4]) {
  Deno.test(`launch: ${n} ranks run, each told its rank, output prefixed`, async () => {
    const { result, lines } = await run(n, "ok");
    assert.equal(result.ok, true, result.message);
    assert.equal(result.code, 0);
    for (let r = 0; r < n; r++) {
      assert.ok(lines.includes(`stdout [rank ${r}] hello from ${r}/${n} device=${r}`), lines.join("\n"));
      assert.ok(lines.includes(`stderr [rank ${r}] stderr line of ${r}`), lines.join("\n"));
    }
  });
}

Deno.test("launch: a failing rank fails the run with its exit code and the others are killed", async () => {
  const { result, ms } = await run(3, "fail");
  assert.equal(result.ok, false);
  assert.equal(result.code, 7);
  assert.match(result.message, /rank 1 exited with code 7/);
  assert.equal(result.ranks[1].code, 7);
  assert.equal(result.ranks[0].killedByLauncher, true);
  assert.equal(result.ranks[2].killedByLauncher, true);
  assert.ok(ms < 20000, `took ${ms} ms: the others were not killed promptly`);
});

Deno.test("launch: a hanging rank is killed at the timeout and named", async () => {
  const { result, ms } = await run(2, "hang", 4000);
  assert.equal(result.ok, false);
  assert.equal(result.timedOut, true);
  assert.equal(result.code, 124);
  assert.match(result.message, /timeout after 4000 ms: rank\(s\) .*1/);
  assert.equal(result.ranks[1].killedByLauncher, true);
  assert.ok(ms < 15000, `took ${ms} ms`);
});

Deno.test("launch: loopback rendezvous hands rank 0's value to every rank", async () => {
  const { result, lines } = await run(3, "rendezvous");
  assert.equal(result.ok, true, result.message);
  for (let r = 0; r < 3; r++) assert.ok(lines.includes(`stdout [rank ${r}] value 1,2,254`), lines.join("\n"));
});

Deno.test("launch CLI: exit code of the failing rank, prefixed output", async () => {
  const cli = new URL("../scripts/launch.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "-n", "2", SCRIPT, "fail"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 7, stderr);
  assert.match(stdout, /\[rank 0\] hello from 0\/2/);
  assert.match(stderr, /launch: FAILED: rank 1 exited with code 7/);
});
