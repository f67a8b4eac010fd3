// Node smoke test of the koffi binding (ffi/node.ts, bundled to CommonJS by tests/node_smoke_test.ts):
// compress and decompress through the C ABI, and a typed failure with the library's message.
// Usage: node tests/node_smoke.cjs <bundled uzip_node.cjs> <libuzip.so>
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");
const koffi = require("koffi");

const [bundle, libPath] = process.argv.slice(2);
const { openNode } = require(path.resolve(bundle));
const uzip = openNode(koffi, { path: libPath });
const api = uzip.symbols;

const BF16 = 1;
const count = 50000;
const src = new Uint16Array(count);
let x = 12345;
for (let i = 0; i < count; i++) {
  x = (Math.imul(x, 1103515245) + 12345) >>> 0;
  src[i] = 0x3c00 + (x >>> 28) * 3; // a few exponents, varied mantissas
}
const out = new BigUint64Array(1);
assert.equal(api.uzipMaxCompressedSize(BF16, BigInt(count), 1, 0, out), 0);
const capacity = out[0];
const dst = new Uint8Array(Number(capacity));
assert.equal(api.uzipCompressCpu(src, BigInt(count), BF16, 1, 0, dst, capacity, out), 0, uzip.lastError());
const size = Number(out[0]);
assert.ok(size > 64 && size < src.byteLength, `compressed to ${size} of ${src.byteLength} bytes`);

const back = new Uint16Array(count);
assert.equal(
  api.uzipDecompressCpu(dst, BigInt(size), back, BigInt(back.byteLength), out),
  0,
  uzip.lastError(),
);
assert.equal(Number(out[0]), src.byteLength);
assert.deepEqual(Buffer.from(back.buffer), Buffer.from(src.buffer));

const status = api.uzipDecompressCpu(dst, BigInt(size - 1), back, BigInt(back.byteLength), out);
assert.equal(status, 3, "a truncated stream is UZIP_ERR_TRUNCATED");
assert.ok(uzip.lastError().length > 0, "the library explains the failure");

const info = new BigUint64Array(17);
assert.equal(api.uzipInspect(dst, BigInt(size), info), 0);
assert.equal(Number(info[4]), count);

// The P2P chunk plan (an i64 result; no GPU needed): 256 MiB of bf16 is 8 chunks of 32 MiB.
const counts = new BigUint64Array(16), log2s = new Uint32Array(16);
const chunks = api.uzipP2pChunkPlan(BigInt(128 << 20), BF16, 0n, counts, log2s, 16);
assert.equal(Number(chunks), 8);
assert.equal(Number(counts[0]), 16 << 20);
assert.equal(log2s[0], 14);

uzip.close();
console.log(
  `node smoke ok: bf16 ${src.byteLength} -> ${size} bytes, round trip exact; P2P plan ${chunks} chunks`,
);
