// The library built where there is no nvcc: `scripts/build.sh --cpu-only` compiles the CPU codec alone
// with the host C++ compiler (a few seconds). It must write the same bytes as the full build, pass the
// codec's own suites, say what it holds, and turn every GPU or NCCL call into an error that names the
// CUDA build instead of a crash or a misleading "rebuild". The build script's choice between the two
// kinds is a pure function, checked case by case.
import { assert, assertEquals } from "./_assert.ts";
import { compress, type DType } from "../mod.ts";
import { planBuild } from "../scripts/build.ts";

const root = new URL("../", import.meta.url);
const deno = Deno.execPath();

Deno.test("build plan: a CPU-only build where nvcc is missing or asked for, replaced once nvcc is found", () => {
  const base = { force: false, cpuOnly: false, nvcc: true, libTime: 10, srcTime: 5, libFeatures: 3 };
  assertEquals(planBuild(base), "up-to-date");
  assertEquals(planBuild({ ...base, force: true }), "cuda");
  assertEquals(planBuild({ ...base, libTime: 0, libFeatures: null }), "cuda");
  assertEquals(planBuild({ ...base, srcTime: 11 }), "cuda", "sources newer than the library");
  assertEquals(planBuild({ ...base, nvcc: false, libTime: 0, libFeatures: null }), "cpu-only");
  assertEquals(
    planBuild({ ...base, nvcc: false }),
    "up-to-date",
    "a full build is kept where nvcc went away",
  );
  assertEquals(planBuild({ ...base, nvcc: false, srcTime: 11 }), "cpu-only");
  assertEquals(
    planBuild({ ...base, libFeatures: 0 }),
    "cuda",
    "a CPU-only build is replaced once nvcc is there",
  );
  assertEquals(planBuild({ ...base, libFeatures: 0, nvcc: false }), "up-to-date");
  assertEquals(planBuild({ ...base, cpuOnly: true }), "cpu-only", "--cpu-only replaces a full build");
  assertEquals(planBuild({ ...base, cpuOnly: true, libFeatures: 0 }), "up-to-date");
  assertEquals(planBuild({ ...base, libFeatures: null }), "up-to-date", "a library too old to say is full");
});

const cxx = ["c++", "g++", "clang++"].some((c) => {
  try {
    return new Deno.Command(c, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
});
if (!cxx) console.log("SKIP (no c++, g++ or clang++ on PATH): the CPU-only build");
const nodeAvailable = (() => {
  try {
    return new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
})();
if (cxx && !nodeAvailable) console.log("SKIP (no node on PATH): the koffi binding on the CPU-only build");

async function buildCpuOnly(dir: string): Promise<string> {
  const lib = `${dir}/libuzip.so`;
  const out = await new Deno.Command("bash", {
    args: [new URL("scripts/build.sh", root).pathname, "--cpu-only", "--out", lib],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert(out.success, dec.decode(out.stdout) + dec.decode(out.stderr));
  return lib;
}

async function child(args: string[], lib: string) {
  const out = await new Deno.Command(deno, {
    args,
    cwd: root.pathname,
    env: { UZIP_LIB: lib, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test({
  name: "CPU-only build: the full build's bytes, its features, and typed errors for GPU and NCCL calls",
  ignore: !cxx,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "uzip-cpu-only-" });
    try {
      const lib = await buildCpuOnly(dir);
      // Inputs and the full build's streams (this process), compared with the CPU-only build's (a child).
      const cases: { dtype: DType; opts: Record<string, unknown>; data: Uint8Array }[] = [];
      for (const [dtype, width] of [["bf16", 2], ["fp32", 4], ["fp8e4m3", 1], ["fp16", 2]] as const) {
        const data = new Uint8Array(width * 70001);
        crypto.getRandomValues(data.subarray(0, 65536));
        // Exponent-like structure in the rest, so that the symbol planes are ANS-coded.
        for (let i = 65536; i < data.length; i++) {
          data[i] = (i % width === width - 1) ? 0x3c + (i % 3) : i * 7;
        }
        for (const opts of [{}, { split: true, checksum: true }, { threads: 2, log2Block: 12 }]) {
          cases.push({ dtype, opts, data });
        }
      }
      const expected = cases.map((c) => compress(c.data, c.dtype, c.opts));
      await Deno.writeTextFile(
        `${dir}/cases.json`,
        JSON.stringify(cases.map((c, i) => ({
          dtype: c.dtype,
          opts: c.opts,
          data: Array.from(c.data),
          expected: Array.from(expected[i]),
        }))),
      );
      await Deno.writeTextFile(
        `${dir}/check.ts`,
        `import { compress, cudaDeviceCount, decompress, libraryFeatures, LibraryLoadError, libraryPath } from "${
          new URL("mod.ts", root).href
        }";
const cases = JSON.parse(await Deno.readTextFile("${dir}/cases.json"));
let same = 0;
for (const c of cases) {
  const data = new Uint8Array(c.data);
  const s = compress(data, c.dtype, c.opts);
  const back = decompress(s);
  if (s.length === c.expected.length && s.every((v, i) => v === c.expected[i]) &&
      back.length === data.length && back.every((v, i) => v === data[i])) same++;
}
let gpuError = "";
try { cudaDeviceCount(); } catch (e) { gpuError = (e instanceof LibraryLoadError ? "LibraryLoadError: " : "other: ") + e.message; }
console.log(JSON.stringify({ path: libraryPath(), features: libraryFeatures(), same, gpuError }));
`,
      );
      const r = await child(["run", "-A", `${dir}/check.ts`], lib);
      assertEquals(r.code, 0, r.text);
      const res = JSON.parse(r.text.trim().split("\n").pop()!);
      assertEquals(res.path, lib);
      assertEquals(res.features, { cuda: false, nccl: false });
      assertEquals(res.same, cases.length, "the CPU-only build wrote other bytes than the full build");
      assert(
        res.gpuError.startsWith("LibraryLoadError: uzipCudaDeviceCount needs the CUDA build") &&
          res.gpuError.includes("CPU codec alone"),
        res.gpuError,
      );
      // The koffi binding in Node on the same build, where Node is installed.
      if (nodeAvailable) {
        const bundle = `${dir}/uzip_node.cjs`;
        const b = await new Deno.Command(deno, {
          args: ["bundle", "--quiet", "--format", "cjs", "-o", bundle, new URL("ffi/node.ts", root).pathname],
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert(b.success, new TextDecoder().decode(b.stderr));
        const n = await new Deno.Command("node", {
          args: [new URL("tests/node_cpu_only.cjs", root).pathname, bundle, lib],
          cwd: root.pathname,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(n.stdout) + new TextDecoder().decode(n.stderr);
        assert(n.success && text.includes("node cpu-only ok"), text);
      }
      // The codec's own suites on the CPU-only build (their GPU cases skip: the device count throws), and the
      // pinned stream digests (its encoder writes the full build's bytes, case for case).
      const suites = await child(
        [
          "test",
          "-A",
          "tests/codec_test.ts",
          "tests/errors_test.ts",
          "tests/ratio_test.ts",
          "tests/stream_digest_test.ts",
        ],
        lib,
      );
      assert(suites.code === 0 && /\d+ passed \| 0 failed/.test(suites.text), suites.text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
