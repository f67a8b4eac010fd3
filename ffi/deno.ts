/**
 * The Deno binding of libuzip.so: `Deno.dlopen` of the table in `ffi/symbols.ts`, opened lazily on the
 * first call of {@linkcode native}.
 *
 * The library is opened with every symbol optional, so that a library built from an older tree (one
 * that lacks the functions of an area still being written) still serves the functions it has; calling
 * a function it lacks throws {@linkcode LibraryLoadError} naming the symbol and the rebuild command.
 *
 * @module
 */
import { symbols, type UzipSymbolName, type UzipSymbols } from "./symbols.ts";
import {
  buildCommand,
  CACHE_ENV,
  LIBRARY_ENV,
  PATH_ENV_NAMES,
  type PathEnv,
  resolveLibraryPath,
} from "./path.ts";

/** The bound functions of libuzip.so. */
export type NativeUzip = Deno.DynamicLibrary<UzipSymbols>["symbols"];

/** libuzip.so could not be found or opened, or lacks a function that was called. */
export class LibraryLoadError extends Error {
  /** The path that was tried. */
  readonly path: string;
  /**
   * Creates the error.
   * @param message what went wrong
   * @param path the library path that was tried
   */
  constructor(message: string, path: string) {
    super(message);
    this.name = "LibraryLoadError";
    this.path = path;
  }
}

let opened: {
  path: string;
  lib: Deno.DynamicLibrary<Deno.ForeignLibraryInterface>;
  api: NativeUzip;
  features: number; // uzipBuildFeatures(): UZIP_FEATURE_CUDA 1 | UZIP_FEATURE_NCCL 2
} | null = null;
let missing: UzipSymbolName[] = [];

// The package root, read when needed: the Node bundle (ffi/node_api.ts) carries this module but has no
// import.meta.url, and never reaches the functions that use it.
const packageRoot = (): URL => new URL("../", import.meta.url);

// Another runtime's binding of the same table (ffi/node_api.ts: koffi in Node), used instead of Deno.dlopen.
let backend: { api: NativeUzip; cString: (ptr: unknown) => string; features: number } | null = null;

/**
 * Serves {@linkcode native} from another runtime's binding of the same symbol table instead of opening
 * the library with `Deno.dlopen` (the Node entry point, `ffi/node_api.ts`, passes its koffi functions).
 *
 * @param api the bound functions, called as Deno's would be (u64 as bigint, buffers as typed arrays)
 * @param readCString reads a NUL-terminated string at a pointer the library returned
 * @param features the library's uzipBuildFeatures()
 */
export function useNativeBackend(
  api: unknown,
  readCString: (ptr: unknown) => string,
  features: number,
): void {
  backend = { api: api as NativeUzip, cString: readCString, features };
}

// The environment's values of the variables the path depends on; each read on its own, so that a
// variable the permissions withhold (no --allow-env, or --allow-env=UZIP_LIB) counts as unset.
function pathEnv(): PathEnv {
  const env: Record<string, string> = {};
  for (const name of PATH_ENV_NAMES) {
    try {
      const v = Deno.env.get(name);
      if (v) env[name] = v;
    } catch { /* not permitted: unset */ }
  }
  return env;
}

/**
 * The library path this process uses: `$UZIP_LIB`; else, for a package on local disk, its
 * `build/libuzip.so`; else (a package imported from JSR) the build of this version in the per-user cache
 * (`$UZIP_CACHE_DIR`, `$XDG_CACHE_HOME/uccl-zip` or `~/.cache/uccl-zip`), which
 * `deno run -A jsr:@uccl/zip@<version>/build` makes. Throws {@linkcode LibraryLoadError} when the package is not on
 * local disk and the environment (or the permissions) give neither `UZIP_LIB` nor a cache folder.
 */
export function libraryPath(): string {
  const root = packageRoot();
  const path = resolveLibraryPath(pathEnv(), root);
  if (path === null) {
    throw new LibraryLoadError(
      `cannot place libuzip: this package is not on local disk (${root.href}) and neither ` +
        `${LIBRARY_ENV}, ${CACHE_ENV}, XDG_CACHE_HOME nor HOME is set (or --allow-env withholds them). ` +
        `Set ${LIBRARY_ENV} to a built libuzip.so, or ${CACHE_ENV} to the folder that ` +
        `\`${buildCommand(root)}\` built into.`,
      "",
    );
  }
  return path;
}

function openLibrary(): NonNullable<typeof opened> {
  const path = libraryPath();
  const optional: Deno.ForeignLibraryInterface = {};
  for (const [key, def] of Object.entries(symbols)) optional[key] = { ...def, optional: true };
  let lib: Deno.DynamicLibrary<Deno.ForeignLibraryInterface>;
  try {
    lib = Deno.dlopen(path, optional);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new LibraryLoadError(
      `cannot open libuzip at ${path} (${why}). Build it with \`${buildCommand(packageRoot())}\` ` +
        `(nvcc for the full library; without it, the CPU codec alone), or set ${LIBRARY_ENV} to the path of ` +
        `a built libuzip.so.`,
      path,
    );
  }
  const featuresFn = lib.symbols.uzipBuildFeatures as (() => number) | null;
  // A library too old to say what it holds was always a full build.
  const features = featuresFn === null ? 3 : featuresFn();
  const cpuOnly = (features & 1) === 0;
  const build = buildCommand(packageRoot());
  const api: Record<string, unknown> = {};
  missing = [];
  for (const key of Object.keys(symbols) as UzipSymbolName[]) {
    const fn = lib.symbols[key];
    if (fn !== null && fn !== undefined) {
      api[key] = fn;
      continue;
    }
    missing.push(key);
    const cName = (symbols[key] as { name?: string }).name ?? key;
    api[key] = () => {
      throw new LibraryLoadError(
        cpuOnly
          ? `${cName} needs the CUDA build of libuzip, and ${path} is the CPU codec alone (built where nvcc ` +
            `was not found). Install the CUDA toolkit 12.8 or newer and run \`${build}\` again: it replaces ` +
            `a CPU-only build once nvcc is there.`
          : `${path} has no function ${cName}: the library is older than the sources. Rebuild it with ` +
            `\`${build}\` (or point ${LIBRARY_ENV} at a current build).`,
        path,
      );
    };
  }
  return { path, lib, api: api as NativeUzip, features };
}

/** The bound functions, opening the library on first use. Throws {@linkcode LibraryLoadError}. */
export function native(): NativeUzip {
  if (backend !== null) return backend.api;
  if (opened === null) opened = openLibrary();
  return opened.api;
}

/** What the opened library holds (see {@linkcode libraryFeatures}). */
export interface LibraryFeatures {
  /** The GPU codec, device buffers, streams and events (a build made with nvcc). */
  readonly cuda: boolean;
  /** Communicators, P2P transfers and collectives over NCCL (a build made with nvcc). */
  readonly nccl: boolean;
}

/**
 * What the library this process uses holds (opens it if needed). A build made where nvcc was not found
 * holds the CPU codec alone: `{ cuda: false, nccl: false }`, and its GPU and NCCL functions throw
 * {@linkcode LibraryLoadError}.
 */
export function libraryFeatures(): LibraryFeatures {
  native();
  const f = backend !== null ? backend.features : opened!.features;
  return { cuda: (f & 1) !== 0, nccl: (f & 2) !== 0 };
}

/** Names of the table's functions that the opened library lacks (opens it if needed). */
export function missingSymbols(): readonly UzipSymbolName[] {
  native();
  return missing;
}

/** Closes the library (tests only: every later call reopens it). */
export function closeLibrary(): void {
  if (opened === null) return;
  opened.lib.close();
  opened = null;
}

/** Reads a NUL-terminated C string returned by the library ("" for a null pointer). */
export function cString(ptr: Deno.PointerValue): string {
  if (backend !== null) return backend.cString(ptr);
  return ptr === null ? "" : Deno.UnsafePointerView.getCString(ptr);
}
