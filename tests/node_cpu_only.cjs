// Node check of the koffi binding on a CPU-only libuzip (tests/cpu_only_test.ts runs it): the CPU codec
// works, the library says it holds no CUDA, and a GPU function throws an error that names the CUDA build.
// Usage: node tests/node_cpu_only.cjs <bundled uzip_node.cjs> <CPU-only libuzip.so>
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");
const koffi = require("koffi");

const [bundle, libPath] = process.argv.slice(2);
const { openNode } = require(path.resolve(bundle));
const api = openNode(koffi, { path: libPath }).symbols;

assert.equal(api.uzipBuildFeatures(), 0, "a CPU-only build reports no features");
const src = new Uint16Array(4096).map((_, i) => 0x3c00 + (i % 5) * 128 + (i & 127));
const out = new BigUint64Array(1);
assert.equal(api.uzipMaxCompressedSize(1, 4096n, 0, 0, out), 0);
const dst = new Uint8Array(Number(out[0]));
assert.equal(api.uzipCompressCpu(src, 4096n, 1, 0, 0, dst, BigInt(dst.length), out), 0);
const back = new Uint16Array(4096);
assert.equal(api.uzipDecompressCpu(dst, out[0], back, BigInt(back.byteLength), out), 0);
assert.deepEqual(back, src);
assert.throws(
  () => api.uzipCudaDeviceCount(new Int32Array(1)),
  /needs the CUDA build of libuzip.*CPU codec alone/,
);
console.log("node cpu-only ok");
