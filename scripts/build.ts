/**
 * Builds libuzip.so with nvcc (`scripts/build.sh`).
 *
 * - In a clone (this module on local disk): builds `build/libuzip.so` when it is missing or older than
 *   any file under cuda/ or nccl/. `deno task build` runs it; `deno task test` and the other tasks run it
 *   first.
 * - Imported from JSR or another web server (`deno run -A jsr:@uccl/zip/build`): fetches the native sources
 *   next to this module, checks each against the sizes and SHA-256 digests of `ffi/sources.ts`, builds in a
 *   temporary folder and moves the library into the per-user cache (`ffi/path.ts`), where the package looks
 *   for it. Nothing is compiled unless every file matched.
 *
 * Usage: `deno run -A scripts/build.ts [--force] [--debug] [--sources-only DIR]`. `--sources-only DIR`
 * fetches and checks the sources into DIR and stops (no nvcc). Narrower permissions than `-A`: read,
 * write, env, `--allow-run=bash`, and `--allow-net=jsr.io` for a JSR build.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { CACHE_ENV, cachedLibraryPath, libraryCacheDir, PATH_ENV_NAMES, type PathEnv } from "../ffi/path.ts";
import { PACKAGE_VERSION } from "../ffi/sources.ts";
import { fetchSources, SourceFetchError, writeSources } from "./build_sources.ts";

const root = new URL("../", import.meta.url);

function fail(message: string, code = 1): never {
  console.error(`error: ${message}`);
  Deno.exit(code);
}

function mtime(url: URL | string): number {
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

function envValue(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined; // not permitted: unset
  }
}

function nvccPath(): string | null {
  const candidates = [envValue("NVCC"), "/usr/local/cuda/bin/nvcc"];
  for (const dir of (envValue("PATH") ?? "").split(":")) if (dir) candidates.push(`${dir}/nvcc`);
  for (const c of candidates) {
    if (!c) continue;
    try {
      if (Deno.statSync(c).isFile) return c;
    } catch { /* not there */ }
  }
  return null;
}

function requireNvcc(what: string): void {
  if (nvccPath() !== null) return;
  fail(
    `nvcc (the CUDA compiler) was not found, and ${what}.\n` +
      "Install the CUDA toolkit 12.8 or newer (nvcc on PATH, or at /usr/local/cuda/bin/nvcc, or NVCC=...),\n" +
      "or point UZIP_LIB at a prebuilt libuzip.so.",
  );
}

// Runs scripts/build.sh of the tree at `tree` (a file: URL ending with /); it writes tree/build/libuzip.so.
async function runBuildSh(tree: URL, debug: boolean): Promise<void> {
  const { code } = await new Deno.Command("bash", {
    args: [new URL("scripts/build.sh", tree).pathname, ...(debug ? ["--debug"] : [])],
    cwd: tree.pathname,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) fail(`scripts/build.sh failed with exit code ${code}`, code);
}

async function buildLocal(force: boolean, debug: boolean): Promise<void> {
  const lib = new URL("build/libuzip.so", root);
  const libTime = mtime(lib);
  const src = [newest(new URL("cuda/", root)), newest(new URL("nccl/", root))].reduce((a, b) =>
    a.time >= b.time ? a : b
  );
  if (!force && libTime > 0 && libTime >= src.time) {
    console.log("build/libuzip.so is up to date");
    return;
  }
  requireNvcc(`build/libuzip.so is ${libTime === 0 ? "missing" : `older than ${src.path}`}`);
  console.log(
    libTime === 0 ? "building build/libuzip.so" : `rebuilding build/libuzip.so (${src.path} changed)`,
  );
  await runBuildSh(root, debug);
}

async function fetchChecked(): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  console.log(`fetching the native sources of @uccl/zip ${PACKAGE_VERSION} from ${root.href}`);
  try {
    return await fetchSources(root);
  } catch (e) {
    if (e instanceof SourceFetchError) fail(`${e.message}; nothing was built`);
    throw e;
  }
}

async function buildRemote(force: boolean, debug: boolean): Promise<void> {
  const env: Record<string, string | undefined> = {};
  for (const name of PATH_ENV_NAMES) env[name] = envValue(name);
  const dir = libraryCacheDir(env as PathEnv);
  if (dir === null) fail(`no cache folder: set ${CACHE_ENV} (or HOME) and allow reading it (--allow-env)`);
  const target = cachedLibraryPath(dir);
  if (!force && mtime(target) > 0) {
    console.log(`${target} is up to date`);
    return;
  }
  requireNvcc(`${target} is missing`);
  const sources = await fetchChecked();
  const tmp = await Deno.makeTempDir({ prefix: "uzip-build-" });
  try {
    const tree = pathToFileURL(`${tmp}/`);
    await writeSources(tree, sources);
    console.log(`building ${target} (in ${tmp})`);
    await runBuildSh(tree, debug);
    const folder = target.slice(0, target.lastIndexOf("/"));
    await Deno.mkdir(folder, { recursive: true });
    // Copied under a private name, then renamed: a process that opens the library never sees half of it.
    const part = `${target}.part.${Deno.pid}`;
    await Deno.copyFile(`${tmp}/build/libuzip.so`, part);
    await Deno.rename(part, target);
    console.log(`built ${target}`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      force: { type: "boolean", default: false },
      debug: { type: "boolean", default: false },
      "sources-only": { type: "string" },
    },
  });
  const into = values["sources-only"];
  if (into !== undefined) {
    const sources = await fetchChecked();
    await Deno.mkdir(into, { recursive: true });
    await writeSources(pathToFileURL(`${await Deno.realPath(into)}/`), sources);
    console.log(`wrote ${sources.size} checked files under ${into}`);
  } else if (root.protocol === "file:") {
    await buildLocal(values.force, values.debug);
  } else {
    await buildRemote(values.force, values.debug);
  }
}
