// Builds build/libuzip.so with scripts/build.sh when it is missing or older than any file under cuda/
// or nccl/. `deno task build` runs it; `deno task test` and the other tasks run it first.
// Usage: deno run -A scripts/build.ts [--force] [--debug]
const root = new URL("../", import.meta.url);
const lib = new URL("build/libuzip.so", root);

function mtime(url: URL): number {
  try {
    return Deno.statSync(url).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

// The newest modification time of a file under `dir` (recursive), with its path.
function newest(dir: URL): { time: number; path: string } {
  let best = { time: 0, path: "" };
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return best;
  }
  for (const e of entries) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    const found = e.isDirectory ? newest(url) : { time: mtime(url), path: url.pathname };
    if (found.time > best.time) best = found;
  }
  return best;
}

function nvccPath(): string | null {
  const candidates = [Deno.env.get("NVCC"), "/usr/local/cuda/bin/nvcc"];
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) if (dir) candidates.push(`${dir}/nvcc`);
  for (const c of candidates) {
    if (!c) continue;
    try {
      if (Deno.statSync(c).isFile) return c;
    } catch { /* not there */ }
  }
  return null;
}

const force = Deno.args.includes("--force");
const debug = Deno.args.includes("--debug");
const libTime = mtime(lib);
const src = [newest(new URL("cuda/", root)), newest(new URL("nccl/", root))].reduce((a, b) =>
  a.time >= b.time ? a : b
);
if (!force && libTime > 0 && libTime >= src.time) {
  console.log("build/libuzip.so is up to date");
  Deno.exit(0);
}
if (nvccPath() === null) {
  console.error(
    "error: nvcc (the CUDA compiler) was not found, and build/libuzip.so is " +
      (libTime === 0 ? "missing" : `older than ${src.path}`) + ".\n" +
      "Install the CUDA toolkit 12.8 or newer (nvcc on PATH, or at /usr/local/cuda/bin/nvcc, or NVCC=...),\n" +
      "or point UZIP_LIB at a prebuilt libuzip.so.",
  );
  Deno.exit(1);
}
console.log(
  libTime === 0 ? "building build/libuzip.so" : `rebuilding build/libuzip.so (${src.path} changed)`,
);
const cmd = new Deno.Command("bash", {
  args: [new URL("scripts/build.sh", root).pathname, ...(debug ? ["--debug"] : [])],
  cwd: root.pathname,
  stdout: "inherit",
  stderr: "inherit",
});
const { code } = await cmd.output();
if (code !== 0) {
  console.error(`error: scripts/build.sh failed with exit code ${code}`);
  Deno.exit(code);
}
