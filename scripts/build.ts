/**
 * Builds libuzip.so with nvcc (`scripts/build.sh`).
 *
 * - In a clone (this module on local disk): builds `build/libuzip.so` when it is missing or older than
 *   any file under cuda/ or nccl/. `deno task build` runs it; `deno task test` and the other tasks run it
 *   first.
 * - Imported from JSR or another web server (`deno run -A jsr:@uccl/zip@<version>/build`): fetches the native sources
 *   next to this module, checks each against the sizes and SHA-256 digests of `ffi/sources.ts`, builds in a
 *   temporary folder and moves the library into the per-user cache (`ffi/path.ts`), where the package looks
 *   for it. Nothing is compiled unless every file matched.
 *
 * Without nvcc (or with `--cpu-only`) it builds the CPU codec alone with a host C++ compiler: compress,
 * decompress and inspect host arrays work, and a GPU or NCCL function throws an error that names the CUDA
 * build; once nvcc is there, the next run replaces such a build with a full one.
 *
 * Usage: `deno run -A scripts/build.ts [--force] [--debug] [--cpu-only] [--sources-only DIR]`.
 * `--sources-only DIR` fetches and checks the sources into DIR and stops (no compiler). Narrower
 * permissions than `-A`: read, write, env, ffi (to ask an existing build what it holds),
 * `--allow-run=bash`, and `--allow-net=jsr.io` for a JSR build.
 *
 * @module
 */
import { fileURLToPath, pathToFileURL } from "node:url";
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
    const found = e.isDirectory ? newest(url) : { time: mtime(url), path: fileURLToPath(url) };
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

/** What a build run does: nothing, the full CUDA build, or the CPU codec alone. */
export type BuildAction = "up-to-date" | "cuda" | "cpu-only";

/** The facts {@linkcode planBuild} decides from. */
export interface BuildFacts {
  /** --force */
  force: boolean;
  /** --cpu-only */
  cpuOnly: boolean;
  /** nvcc was found */
  nvcc: boolean;
  /** the existing library's modification time (0: none) */
  libTime: number;
  /** the newest source's modification time (0 for a cache build: its folder is named by its sources) */
  srcTime: number;
  /** the existing library's uzipBuildFeatures() (null: none, or it cannot say) */
  libFeatures: number | null;
}

/**
 * Decides a build: an existing library is kept when it is as new as its sources and is what this machine
 * can build (a CPU-only build is replaced once nvcc is found, unless --cpu-only asks for one).
 */
export function planBuild(f: BuildFacts): BuildAction {
  const want: BuildAction = f.cpuOnly || !f.nvcc ? "cpu-only" : "cuda";
  if (f.force || f.libTime === 0 || f.libTime < f.srcTime) return want;
  const isCpuOnly = f.libFeatures === 0;
  if (want === "cuda" && isCpuOnly) return "cuda";
  if (f.cpuOnly && !isCpuOnly) return "cpu-only";
  return "up-to-date";
}

// uzipBuildFeatures() of the library at `path`, or null when there is none or it lacks the function.
function libraryFeatures(path: string): number | null {
  if (mtime(path) === 0) return null;
  try {
    const lib = Deno.dlopen(path, { uzipBuildFeatures: { parameters: [], result: "i32", optional: true } });
    try {
      return lib.symbols.uzipBuildFeatures === null ? null : lib.symbols.uzipBuildFeatures();
    } finally {
      lib.close();
    }
  } catch {
    return null;
  }
}

const CPU_ONLY_NOTE =
  "nvcc (the CUDA compiler) was not found: building the CPU codec only (compress, decompress " +
  "and inspect host arrays). GPU, device-buffer and NCCL functions need the CUDA toolkit 12.8 or newer (nvcc on " +
  "PATH, at /usr/local/cuda/bin/nvcc, or NVCC=...); run this again once it is there.";

// Runs scripts/build.sh of the tree at `tree` (a file: URL ending with /); it writes tree/build/libuzip.so.
async function runBuildSh(tree: URL, debug: boolean, action: BuildAction): Promise<void> {
  const { code } = await new Deno.Command("bash", {
    args: [
      fileURLToPath(new URL("scripts/build.sh", tree)),
      ...(debug ? ["--debug"] : []),
      ...(action === "cpu-only" ? ["--cpu-only"] : []),
    ],
    cwd: fileURLToPath(tree),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new BuildFailed(`scripts/build.sh failed with exit code ${code}`, code);
}

// A failed compile: thrown (not Deno.exit) so that the remote build's temporary folder is removed first.
class BuildFailed extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

async function buildLocal(force: boolean, debug: boolean, cpuOnly: boolean): Promise<void> {
  const lib = new URL("build/libuzip.so", root);
  const libTime = mtime(lib);
  const src = [newest(new URL("cuda/", root)), newest(new URL("nccl/", root))].reduce((a, b) =>
    a.time >= b.time ? a : b
  );
  const nvcc = nvccPath() !== null;
  const action = planBuild({
    force,
    cpuOnly,
    nvcc,
    libTime,
    srcTime: src.time,
    libFeatures: libraryFeatures(fileURLToPath(lib)),
  });
  if (action === "up-to-date") {
    console.log("build/libuzip.so is up to date");
    return;
  }
  if (action === "cpu-only" && !cpuOnly) console.warn(`warning: ${CPU_ONLY_NOTE}`);
  console.log(
    libTime === 0
      ? `building build/libuzip.so (${action})`
      : `rebuilding build/libuzip.so (${action}; ${
        force ? "forced" : libTime < src.time ? `${src.path} changed` : "replacing a build of another kind"
      })`,
  );
  await runBuildSh(root, debug, action);
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

async function buildRemote(force: boolean, debug: boolean, cpuOnly: boolean): Promise<void> {
  const env: Record<string, string | undefined> = {};
  for (const name of PATH_ENV_NAMES) env[name] = envValue(name);
  const dir = libraryCacheDir(env as PathEnv);
  if (dir === null) fail(`no cache folder: set ${CACHE_ENV} (or HOME) and allow reading it (--allow-env)`);
  const target = cachedLibraryPath(dir);
  const action = planBuild({
    force,
    cpuOnly,
    nvcc: nvccPath() !== null,
    libTime: mtime(target),
    srcTime: 0,
    libFeatures: libraryFeatures(target),
  });
  if (action === "up-to-date") {
    console.log(`${target} is up to date`);
    return;
  }
  if (action === "cpu-only" && !cpuOnly) console.warn(`warning: ${CPU_ONLY_NOTE}`);
  const sources = await fetchChecked();
  const tmp = await Deno.makeTempDir({ prefix: "uzip-build-" });
  try {
    const tree = pathToFileURL(`${tmp}/`);
    await writeSources(tree, sources);
    console.log(`building ${target} (${action}, in ${tmp})`);
    await runBuildSh(tree, debug, action);
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
      "cpu-only": { type: "boolean", default: false },
      "sources-only": { type: "string" },
    },
  });
  const into = values["sources-only"];
  try {
    if (into !== undefined) {
      const sources = await fetchChecked();
      await Deno.mkdir(into, { recursive: true });
      await writeSources(pathToFileURL(`${await Deno.realPath(into)}/`), sources);
      console.log(`wrote ${sources.size} checked files under ${into}`);
    } else if (root.protocol === "file:") {
      await buildLocal(values.force, values.debug, values["cpu-only"]);
    } else {
      await buildRemote(values.force, values.debug, values["cpu-only"]);
    }
  } catch (e) {
    if (e instanceof BuildFailed) fail(e.message, e.code);
    throw e;
  }
}
