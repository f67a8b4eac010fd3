// The auto policy (src/policy.ts), CPU only: small messages and fast links stay plain, large messages on
// a slow link with a fast codec go compressed, and the chunk count mirrors the engine's formula.
import assert from "node:assert/strict";
import { native } from "../ffi/deno.ts";
import { dtypeId } from "../src/dtype.ts";
import { chunkCount, chunkPlan, Policy } from "../src/policy.ts";
import { cudaBuildTest } from "./_gpu.ts";

const MiB = 1 << 20;
const slow = { linkBps: 37e9, compressBps: 1000e9, decompressBps: 800e9, stepSeconds: 20e-6 };
const nvlink = { linkBps: 363e9, compressBps: 1000e9, decompressBps: 800e9, stepSeconds: 20e-6 };

Deno.test("policy: chunk plan (about 2 chunks, >= 4 MiB, <= 32 MiB; 2^12 blocks up to 16 MiB)", () => {
  const mib = (bytes: number, w: number) => chunkPlan(bytes, w, 32 * MiB).map((c) => (c.count * w) / MiB);
  assert.deepEqual(mib(1 * MiB, 2), [1]);
  assert.deepEqual(mib(4 * MiB, 2), [4]);
  assert.deepEqual(mib(12 * MiB, 2), [6, 6]);
  assert.deepEqual(mib(16 * MiB, 2), [8, 8]);
  assert.deepEqual(mib(64 * MiB, 2), [32, 32]);
  assert.deepEqual(mib(100 * MiB, 2), [32, 32, 32, 4]);
  assert.equal(chunkCount(256 * MiB, 2, 32 * MiB), 8);
  assert.equal(chunkCount(1024 * MiB, 4, 32 * MiB), 32);
  assert.equal(chunkCount(0, 2, 32 * MiB), 0);
  assert.deepEqual(chunkPlan(16 * MiB, 2, 32 * MiB).map((c) => c.log2Block), [12, 12]);
  assert.deepEqual(chunkPlan(32 * MiB, 2, 32 * MiB).map((c) => c.log2Block), [12, 12]);
  assert.deepEqual(chunkPlan(34 * MiB, 2, 32 * MiB).map((c) => c.log2Block), [14, 14]);
  assert.deepEqual(chunkPlan(64 * MiB, 2, 32 * MiB).map((c) => c.log2Block), [14, 14]);
  assert.deepEqual(chunkPlan(72 * MiB + 2, 2, 32 * MiB).map((c) => c.log2Block), [14, 14, 12]);
  // Every plan covers the message exactly, in whole 2^14-element blocks but the last.
  for (const bytes of [3 * MiB + 6, 40 * MiB + 2, 100 * MiB, 777 * MiB + 4]) {
    const plan = chunkPlan(bytes, 2, 32 * MiB);
    assert.equal(plan.reduce((a, c) => a + c.count, 0), Math.floor(bytes / 2));
    assert.ok(plan.slice(0, -1).every((c) => c.count % (1 << 14) === 0));
  }
});

cudaBuildTest("policy: chunk plan equals the engine's (uzipP2pChunkPlan)", () => {
  const lib = native();
  const counts = new BigUint64Array(256), log2s = new Uint32Array(256);
  const ids: Record<number, number> = { 1: dtypeId("fp8e4m3"), 2: dtypeId("bf16"), 4: dtypeId("fp32") };
  for (const w of [1, 2, 4]) {
    for (const chunk of [0, 1 * MiB, 32 * MiB, 64 * MiB]) {
      for (let bytes = w; bytes < 2048 * MiB; bytes = Math.ceil(bytes * 1.7) + w) {
        bytes -= bytes % w;
        const n = Number(lib.uzipP2pChunkPlan(BigInt(bytes / w), ids[w], BigInt(chunk), counts, log2s, 256));
        const mine = chunkPlan(bytes, w, chunk || 32 * MiB);
        const theirs = Array.from({ length: Math.min(n, 256) }, (_, i) => ({
          count: Number(counts[i]),
          log2Block: log2s[i],
        }));
        assert.equal(n, mine.length, `${bytes} B, width ${w}, chunk ${chunk}`);
        assert.deepEqual(mine.slice(0, 256), theirs, `${bytes} B, width ${w}, chunk ${chunk}`);
      }
    }
  }
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
  // fp8e4m3 (expected ratio 0.9) cannot beat the 1.08 margin.
  assert.equal(p.decide(1024 * MiB, "fp8e4m3", slow).compress, false);
  assert.throws(() => p.setLink(1, { ...slow, linkBps: 0 }), RangeError);
});

Deno.test("policy: a pair whose data does not compress goes plain, and is probed again now and then", () => {
  const p = new Policy({ reprobeEvery: 4 });
  p.setLink(1, slow);
  const bytes = 256 * MiB;
  assert.equal(p.shouldCompress(1, "send", bytes, "bf16"), true, "expectation: bf16 compresses");
  assert.equal(p.ratioFor(1, "send", "bf16"), p.ratios.bf16);
  p.observe(1, "send", "bf16", bytes, bytes * 0.99); // random bits as bf16: nothing to gain
  assert.equal(p.ratioFor(1, "send", "bf16"), 0.99);
  const seq = Array.from({ length: 8 }, () => p.shouldCompress(1, "send", bytes, "bf16"));
  assert.deepEqual(seq, [false, false, false, true, false, false, false, true], "every 4th is a probe");
  // Other directions, peers and dtypes keep their own numbers.
  assert.equal(p.shouldCompress(1, "recv", bytes, "bf16"), true);
  assert.equal(p.shouldCompress(2, "send", bytes, "bf16"), false, "no model for peer 2");
  assert.equal(p.ratioFor(1, "send", "fp16"), p.ratios.fp16);
  // A probe that finds compressible data again brings the pair back (running mean, latest weighs half).
  p.observe(1, "send", "bf16", bytes, bytes * 0.3);
  assert.ok(Math.abs(p.ratioFor(1, "send", "bf16") - 0.645) < 1e-12);
  assert.equal(p.shouldCompress(1, "send", bytes, "bf16"), true);
  // What the expectation keeps plain stays plain, probe or not.
  assert.equal(p.shouldCompress(1, "send", 1 * MiB, "bf16"), false);
  // Bad observations teach nothing.
  p.observe(1, "send", "bf16", 0, 5);
  p.observe(1, "send", "bf16", bytes, NaN);
  assert.ok(Math.abs(p.ratioFor(1, "send", "bf16") - 0.645) < 1e-12);
  assert.throws(() => new Policy({ reprobeEvery: 0 }), RangeError);
});

Deno.test("policy: both sides of a pair fed the same observations decide alike, transfer after transfer", () => {
  const a = new Policy(), b = new Policy();
  a.setLink(1, slow); // rank 0 sends to rank 1
  b.setLink(0, slow); // rank 1 receives from rank 0
  let x = 7;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < 500; i++) {
    const bytes = Math.floor(next() * 512) * MiB, dtype = next() < 0.5 ? "bf16" : "fp32";
    const ca = a.shouldCompress(1, "send", bytes, dtype), cb = b.shouldCompress(0, "recv", bytes, dtype);
    assert.equal(ca, cb, `transfer ${i}`);
    if (ca) {
      const wire = Math.floor(bytes * (next() < 0.3 ? 0.98 : 0.66)); // the engine's count, seen by both
      a.observe(1, "send", dtype, bytes, wire);
      b.observe(0, "recv", dtype, bytes, wire);
    }
  }
});
