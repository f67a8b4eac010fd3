/**
 * The Node binding of libuzip.so through koffi, built from the same table as the Deno binding
 * (`ffi/symbols.ts`). Deno FFI types map to koffi types; nonblocking entries become Promise-returning
 * functions on koffi's worker pool. koffi is passed in by the caller (`require("koffi")`), so this
 * package has no npm dependency and no native addon to compile.
 *
 * @example
 * ```js
 * const koffi = require("koffi");
 * const { openNode } = require("./uzip_node.cjs"); // this file, bundled: see tests/node_smoke_test.ts
 * const uzip = openNode(koffi, { path: "/path/to/libuzip.so" });
 * console.log(uzip.symbols.uzipVersion());
 * ```
 *
 * @module
 */
import { symbols, type UzipSymbols } from "./symbols.ts";
import { CACHE_ENV, LIBRARY_ENV, resolveLibraryPath } from "./path.ts";

/** The part of koffi's API this binding uses. */
export interface KoffiLike {
  /** Opens a shared library. */
  load(path: string): KoffiLibrary;
  /** Reads C data at a pointer (`decode(ptr, "char", -1)` reads a NUL-terminated string). */
  decode(value: unknown, type: string, len?: number): unknown;
}

/** A library opened by koffi. */
export interface KoffiLibrary {
  /** Declares a function. */
  func(name: string, result: string, parameters: string[]): KoffiFunction;
  /** Closes the library. */
  unload?(): void;
}

/** A koffi function: callable, with an `async` variant taking a Node-style callback. */
export interface KoffiFunction {
  /** Calls the function on this thread. */
  (...args: unknown[]): unknown;
  /** Calls the function on a worker thread. */
  async(...args: unknown[]): void;
}

/** The koffi type of each Deno FFI type. `buffer` and `pointer` are both `void *`. */
export const KOFFI_TYPES: Readonly<Record<Exclude<Deno.NativeType, Deno.NativeStructType> | "void", string>> =
  {
    void: "void",
    bool: "bool",
    u8: "uint8_t",
    i8: "int8_t",
    u16: "uint16_t",
    i16: "int16_t",
    u32: "uint32_t",
    i32: "int32_t",
    u64: "uint64_t",
    i64: "int64_t",
    usize: "size_t",
    isize: "intptr_t",
    f32: "float",
    f64: "double",
    pointer: "void *",
    buffer: "void *",
    function: "void *",
  };

/** The koffi name of a Deno FFI type (throws for struct types, which the table does not use). */
export function koffiType(t: Deno.NativeResultType): string {
  if (typeof t !== "string") throw new TypeError("struct types are not used by libuzip's ABI");
  const k = KOFFI_TYPES[t];
  if (k === undefined) throw new TypeError(`no koffi type for FFI type ${t}`);
  return k;
}

/** The JS value koffi takes for a parameter of FFI type `T`. */
export type ArgOf<T> = T extends "u64" | "i64" | "usize" | "isize" ? bigint | number
  : T extends "buffer" ? ArrayBufferView | null
  : T extends "pointer" | "function" ? unknown
  : T extends "bool" ? boolean
  : number;
/** The JS values koffi takes for a parameter list. */
export type ArgsOf<P> = { -readonly [I in keyof P]: ArgOf<P[I]> };
/** The JS value koffi returns for a result of FFI type `R`. */
export type ResultOf<R> = R extends "pointer" ? unknown : R extends "void" ? void : number;

/** The bound functions, typed from the symbol table. */
export type NodeUzip = {
  [K in keyof UzipSymbols]: UzipSymbols[K] extends { nonblocking: true } ? (
      ...args: ArgsOf<UzipSymbols[K]["parameters"]>
    ) => Promise<ResultOf<UzipSymbols[K]["result"]>>
    : (...args: ArgsOf<UzipSymbols[K]["parameters"]>) => ResultOf<UzipSymbols[K]["result"]>;
};

/** Options of {@linkcode openNode}. */
export interface OpenNodeOptions {
  /**
   * Library path; else `$UZIP_LIB`, else `build/libuzip.so` under a `file:` `packageRoot`, else (a web
   * `packageRoot`) the per-user cache's build of this version (`ffi/path.ts`).
   */
  path?: string;
  /** The package root (ends with `/`), used when neither `path` nor `$UZIP_LIB` is given. */
  packageRoot?: URL;
  /** The environment (default: `process.env`). */
  env?: Record<string, string | undefined>;
}

/** An opened libuzip for Node. */
export interface NodeBinding {
  /** The library path. */
  path: string;
  /** The bound functions. */
  symbols: NodeUzip;
  /** This thread's `uzipLastError()` as a string. */
  lastError(): string;
  /** Closes the library. */
  close(): void;
}

/**
 * Opens libuzip.so with koffi and binds every function of the table. A function the library lacks
 * throws, when called, an error naming it.
 */
export function openNode(koffi: KoffiLike, opts: OpenNodeOptions = {}): NodeBinding {
  const env = opts.env ??
    (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
  let path = opts.path;
  if (!path) {
    if (!env[LIBRARY_ENV] && !opts.packageRoot) {
      throw new Error(`libuzip path unknown: set ${LIBRARY_ENV} or pass { path } to openNode`);
    }
    const resolved = resolveLibraryPath(env, opts.packageRoot ?? new URL("file:///"));
    if (resolved === null) {
      throw new Error(
        `libuzip path unknown: set ${LIBRARY_ENV} or ${CACHE_ENV}, or pass { path } to openNode`,
      );
    }
    path = resolved;
  }
  const lib = koffi.load(path);
  const bound: Record<string, unknown> = {};
  let cpuOnly = false; // set below from uzipBuildFeatures(); read by the missing functions' errors
  for (const [key, def] of Object.entries(symbols)) {
    const d = def as Deno.ForeignFunction & { name?: string };
    const cName = d.name ?? key;
    let fn: KoffiFunction;
    try {
      fn = lib.func(cName, koffiType(d.result), d.parameters.map((p) => koffiType(p)));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      bound[key] = () => {
        throw new Error(
          cpuOnly
            ? `${cName} needs the CUDA build of libuzip; ${path} is the CPU codec alone (built without nvcc)`
            : `${path} has no usable function ${cName} (${why}): rebuild it (deno task build)`,
        );
      };
      continue;
    }
    bound[key] = d.nonblocking
      ? (...args: unknown[]) =>
        new Promise((resolve, reject) =>
          fn.async(...args, (err: unknown, res: unknown) => err ? reject(err) : resolve(res))
        )
      : fn;
  }
  const api = bound as NodeUzip;
  try {
    cpuOnly = api.uzipBuildFeatures() === 0;
  } catch { /* a library too old to say: a full build */ }
  return {
    path,
    symbols: api,
    lastError: () => {
      const p = api.uzipLastError();
      return p === null ? "" : String(koffi.decode(p, "char", -1));
    },
    close: () => lib.unload?.(),
  };
}
