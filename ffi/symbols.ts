/**
 * The one FFI symbol table of libuzip.so, bound by `ffi/deno.ts` (Deno.dlopen) and `ffi/node.ts`
 * (koffi). Each area of the C ABI keeps its part in its own `ffi/symbols_*.ts`; a new area is one
 * import and one spread line here.
 *
 * @module
 */
import { codecSymbols } from "./symbols_codec.ts";
import { cudaSymbols } from "./symbols_cuda.ts";
import { collSymbols } from "./symbols_coll.ts";
import { commSymbols } from "./symbols_comm.ts";

/** Every function of `cuda/uzip.h` that the TS layer calls. */
export const symbols = {
  ...codecSymbols,
  ...cudaSymbols,
  ...collSymbols,
  ...commSymbols,
} as const satisfies Deno.ForeignLibraryInterface;

/** The symbol table's type. */
export type UzipSymbols = typeof symbols;
/** A key of the symbol table. */
export type UzipSymbolName = keyof UzipSymbols;
