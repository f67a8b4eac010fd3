// The auto policy (src/policy.ts), CPU only: small messages and fast links stay plain, large messages on
// a slow link with a fast codec go compressed, and the chunk count mirrors the engine's formula.
import assert from "node:assert/strict";
import { chunkCount, Policy } from "../src/policy.ts";

const MiB = 1 << 20;
const slow = { linkBps: 37e9, compressBps: 1000e9, decompressBps: 800e9, stepSeconds: 20e-6 };
const nvlink = { linkBps: 363e9, compressBps: 1000e9, decompressBps: 800e9, stepSeconds: 20e-6 };

Deno.test("policy: chunk count mirrors nccl/p2p.cc (about 4 chunks, >= 4 MiB, <= 32 MiB)", () => {
  assert.equal(chunkCount(1 * MiB, 2, 32 * MiB), 1);
  assert.equal(chunkCount(4 * MiB, 2, 32 * MiB), 1);
  assert.equal(chunkCount(16 * MiB, 2, 32 * MiB), 4);
  assert.equal(chunkCount(64 * MiB, 2, 32 * MiB), 4);
  assert.equal(chunkCount(256 * MiB, 2, 32 * MiB), 8);
  assert.equal(chunkCount(1024 * MiB, 4, 32 * MiB), 32);
  assert.equal(chunkCount(0, 2, 32 * MiB), 0);
});

Deno.test("policy: large bf16 on a slow link compresses; small messages never do", () => {
  const p = new Policy();
  for (const mib of [64, 256, 1024]) {
    const d = p.decide(mib * MiB, "bf16", slow);
    assert.equal(d.compress, true, `${mib} MiB: ${d.reason}`);
    assert.ok(d.compressedSeconds < d.plainSeconds);
  }
  for (const bytes of [4096, 65536, 1 * MiB, 3 * MiB]) {
    assert.equal(p.decide(bytes, "bf16", slow).compress, false, `${bytes} B`);
  }
  assert.equal(p.decide(1024 * MiB, "bytes", slow).compress, false);
});

Deno.test("policy: NVLink-class links stay plain (codec under minCodecToLink x link)", () => {
  const p = new Policy();
  for (const mib of [4, 64, 1024]) {
    const d = p.decide(mib * MiB, "bf16", nvlink);
    assert.equal(d.compress, false, `${mib} MiB`);
    assert.match(d.reason, /codec under 8x the link/);
  }
});

Deno.test("policy: a measured step cost that eats the gain keeps it plain; no model means plain", () => {
  const p = new Policy();
  assert.equal(p.decide(64 * MiB, "bf16", { ...slow, stepSeconds: 200e-6 }).compress, false);
  assert.equal(p.decide(64 * MiB, "bf16", undefined).compress, false);
  // fp8e4m3 (expected ratio 0.9) cannot beat the 1.15 margin.
  assert.equal(p.decide(1024 * MiB, "fp8e4m3", slow).compress, false);
  assert.throws(() => p.setLink(1, { ...slow, linkBps: 0 }), RangeError);
});
