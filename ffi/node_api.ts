/**
 * The codec's TypeScript API in Node: {@linkcode loadNode} binds libuzip.so with koffi (`ffi/node.ts`)
 * and routes the same `compress`, `decompress`, `inspect`, `maxCompressedSize`, `compressAsync` and
 * `decompressAsync` that Deno users call through it, so Node gets the same bytes, the same checks and
 * the same typed errors (`UzipError` and its subclasses). Bundle it to CommonJS with
 * `deno bundle --format cjs -o uzip_node_api.cjs ffi/node_api.ts`; koffi is passed in, so the bundle has no
 * dependency of its own. The GPU, communicator and collective APIs stay Deno-only.
 *
 * @example
 * ```js
 * const koffi = require("koffi");
 * const uzip = require("./uzip_node_api.cjs");
 * uzip.loadNode(koffi, { path: "/path/to/libuzip.so" });
 * const stream = uzip.compress(new Uint16Array(1 << 20), "bf16");
 * const back = uzip.decompress(stream);
 * ```
 *
 * @module
 */
import { type KoffiLike, openNode, type OpenNodeOptions } from "./node.ts";
import { useNativeBackend } from "./deno.ts";

export type { KoffiFunction, KoffiLibrary, KoffiLike, OpenNodeOptions } from "./node.ts";
export {
  compress,
  compressAsync,
  type CompressOptions,
  decompress,
  decompressAsync,
  type DecompressOptions,
  defaultLog2Block,
  FLAG_CHECKSUM,
  FLAG_LANES,
  FLAG_LEAN,
  FLAG_PAIRS,
  FLAG_SPLIT,
  inspect,
  LOG2_BLOCK,
  maxCompressedSize,
  type ModeCounts,
  type StreamInfo,
} from "../src/codec.ts";
export {
  BufferTooSmallError,
  ChecksumError,
  CorruptStreamError,
  InvalidArgumentError,
  Status,
  type StatusName,
  TruncatedStreamError,
  UnsupportedError,
  UzipError,
} from "../src/errors.ts";
export { type DType, DTYPES } from "../src/dtype.ts";

/** The library {@linkcode loadNode} opened. */
export interface LoadedLibrary {
  /** Its path. */
  readonly path: string;
  /** Its uzipBuildFeatures(): 1 the GPU codec, 2 NCCL; 0 for a CPU-only build (the codec works either way). */
  readonly features: number;
  /** Closes it (the module's functions must not be called afterwards). */
  close(): void;
}

/**
 * Opens libuzip.so with koffi and makes it the library behind this module's functions.
 *
 * @param koffi `require("koffi")`
 * @param opts the library path (else `$UZIP_LIB`), as for `openNode` of `ffi/node.ts`
 * @returns the opened library
 */
export function loadNode(koffi: KoffiLike, opts: OpenNodeOptions = {}): LoadedLibrary {
  const binding = openNode(koffi, opts);
  let features = 3; // a library too old to say was a full build
  try {
    features = binding.symbols.uzipBuildFeatures();
  } catch { /* keep 3 */ }
  useNativeBackend(
    binding.symbols,
    (ptr) => (ptr === null || ptr === undefined ? "" : String(koffi.decode(ptr, "char", -1))),
    features,
  );
  return { path: binding.path, features, close: binding.close };
}
