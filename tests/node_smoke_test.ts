// Bundles ffi/node.ts to CommonJS and runs tests/node_smoke.cjs in Node against the same libuzip.so.
import { assert } from "./_assert.ts";
import { libraryPath } from "../ffi/deno.ts";
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
