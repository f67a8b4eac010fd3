// Bundles ffi/node.ts to CommonJS and runs tests/node_smoke.cjs in Node against the same libuzip.so.
import { assert } from "./_assert.ts";
import { libraryPath } from "../ffi/deno.ts";
import { compress } from "../src/codec.ts";
import { cudaBuildTest } from "./_gpu.ts";

const root = new URL("../", import.meta.url);
const nodeAvailable = (() => {
  try {
    new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
})();
if (!nodeAvailable) console.log("SKIP (no node on PATH): koffi binding round trip in Node");

cudaBuildTest({
  name: "koffi binding: compress/decompress round trip in Node",
  ignore: !nodeAvailable,
  fn: async () => {
    const bundle = new URL("build/node/uzip_node.cjs", root).pathname;
    await Deno.mkdir(new URL("build/node/", root), { recursive: true });
    const b = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--format", "cjs", "-o", bundle, new URL("ffi/node.ts", root).pathname],
      cwd: root.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(b.success, `deno bundle failed: ${new TextDecoder().decode(b.stderr)}`);
    const r = await new Deno.Command("node", {
      args: [new URL("tests/node_smoke.cjs", root).pathname, bundle, libraryPath()],
      cwd: root.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
    assert(r.success && text.includes("node smoke ok"), text);
  },
});

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(bin);
}

Deno.test({
  name: "Node API (ffi/node_api.ts): Deno's streams byte for byte, round trips, async twins, typed errors",
  ignore: !nodeAvailable,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "uzip-node-api-" });
    try {
      const bundle = `${dir}/uzip_node_api.cjs`;
      const b = await new Deno.Command(Deno.execPath(), {
        args: [
          "bundle",
          "--quiet",
          "--format",
          "cjs",
          "-o",
          bundle,
          new URL("ffi/node_api.ts", root).pathname,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert(b.success, `deno bundle failed: ${new TextDecoder().decode(b.stderr)}`);
      // Inputs and this process's streams of them: random bf16 / fp32 words with a few exponents.
      const cases = [];
      for (const [dtype, width] of [["bf16", 2], ["fp32", 4], ["fp8e4m3", 1]] as const) {
        const data = new Uint8Array(width * 40001);
        for (let i = 0; i < data.length; i += 65536) crypto.getRandomValues(data.subarray(i, i + 65536));
        for (let i = width - 1; i < data.length; i += width) data[i] = 0x3c + (data[i] % 3);
        for (
          const opts of [{}, { split: true, checksum: true }, { log2Block: 11 }, { lean: true, split: true }]
        ) {
          cases.push({
            dtype,
            opts,
            data: base64(data),
            stream: base64(compress(data, dtype, opts)),
          });
        }
      }
      await Deno.writeTextFile(`${dir}/cases.json`, JSON.stringify(cases));
      const r = await new Deno.Command("node", {
        args: [
          new URL("tests/node_api_smoke.cjs", root).pathname,
          bundle,
          libraryPath(),
          `${dir}/cases.json`,
        ],
        cwd: root.pathname,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
      assert(r.success && text.includes(`node api ok: ${cases.length} streams alike`), text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
