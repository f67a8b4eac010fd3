// Node check of the codec's TypeScript API through koffi (ffi/node_api.ts, bundled to CommonJS by
// tests/node_smoke_test.ts): the same streams as Deno's compress for the same inputs, round trips, inspect,
// the async twins and typed errors.
// Usage: node tests/node_api_smoke.cjs <bundled uzip_node_api.cjs> <libuzip.so> <cases.json>
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const koffi = require("koffi");

const [bundle, libPath, casesPath] = process.argv.slice(2);
const uzip = require(path.resolve(bundle));
uzip.loadNode(koffi, { path: libPath });

(async () => {
  const cases = JSON.parse(fs.readFileSync(casesPath, "utf8"));
  for (const c of cases) {
    const data = Uint8Array.from(Buffer.from(c.data, "base64"));
    const expected = Uint8Array.from(Buffer.from(c.stream, "base64"));
    const s = uzip.compress(data, c.dtype, c.opts);
    assert.deepEqual(s, expected, `${c.dtype} ${JSON.stringify(c.opts)}: the same stream as Deno's`);
    assert.deepEqual(await uzip.compressAsync(data, c.dtype, c.opts), expected, "compressAsync");
    assert.deepEqual(uzip.decompress(s), data, "round trip");
    assert.deepEqual(await uzip.decompressAsync(s), data, "decompressAsync");
    const info = uzip.inspect(s);
    assert.equal(info.dtype, c.dtype);
    assert.equal(info.totalBytes, s.length);
  }
  // The library's own message comes through (koffi's string read of uzipLastError).
  assert.throws(
    () => uzip.decompress(new Uint8Array(100)),
    (e) => e instanceof uzip.CorruptStreamError && /bad magic/.test(e.message),
  );
  assert.throws(() => uzip.decompress(new Uint8Array(10)), (e) => e instanceof uzip.TruncatedStreamError);
  assert.throws(
    () => uzip.compress(new Uint8Array(3), "bf16"),
    (e) => e instanceof uzip.InvalidArgumentError,
  );
  await assert.rejects(
    uzip.decompressAsync(new Uint8Array(100)),
    (e) => e instanceof uzip.CorruptStreamError,
  );
  const s = uzip.compress(new Uint16Array(5000).fill(0x3f80), "bf16", { checksum: true });
  s[s.length - 1] ^= 1;
  assert.throws(() => uzip.decompress(s), (e) => e instanceof uzip.UzipError && e.message.length > 0);
  console.log(`node api ok: ${cases.length} streams alike`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
