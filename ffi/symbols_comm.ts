/**
 * FFI signatures of the communicator and point-to-point functions of `nccl/uzip_comm.h`.
 * Communicators are opaque `"u64"` handles; a batch of operations is a buffer of 32-byte records
 * (`uzip_p2p_op`: u64 buf, u64 count, i32 dtype, i32 peer, i32 isSend, i32 compress).
 *
 * @module
 */

/** Communicators (NCCL loaded at run time) and compressed send/recv. */
export const commSymbols = {
  /** (i32* out) */
  uzipNcclVersion: { parameters: ["buffer"], result: "i32" },
  /** (u8 out[128]) */
  uzipCommUniqueId: { parameters: ["buffer"], result: "i32" },
  /** (u8 id[128], nranks, rank, device, timeoutMs, u64* outComm) */
  uzipCommInit: { parameters: ["buffer", "i32", "i32", "i32", "u32", "buffer"], result: "i32" },
  /** The same C function on a worker thread: rendezvous with the other ranks without blocking JS. */
  uzipCommInitAsync: {
    name: "uzipCommInit",
    parameters: ["buffer", "i32", "i32", "i32", "u32", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  uzipCommDestroy: { parameters: ["u64"], result: "i32" },
  /** (comm or 0 for the last failed init, char out[cap], cap): the message of an operation's failure
   * on a worker thread (nonblocking calls cannot read that thread's uzipLastError). */
  uzipCommLastError: { parameters: ["u64", "buffer", "u32"], result: "i32" },
  uzipCommAbort: { parameters: ["u64"], result: "i32" },
  /** (comm, i32 out[4] = rank, size, device, aborted) */
  uzipCommInfo: { parameters: ["u64", "buffer"], result: "i32" },
  /** (count, dtype, chunkBytes, u64 counts[cap], u32 log2s[cap], cap) -> chunks or < 0: the P2P plan. */
  uzipP2pChunkPlan: { parameters: ["u64", "i32", "u64", "buffer", "buffer", "u32"], result: "i64" },
  /** (comm, ops, nops, stream, timeoutMs): plain batches return at once. */
  uzipP2pRun: { parameters: ["u64", "buffer", "u32", "u64", "u32"], result: "i32" },
  /** The same C function on a worker thread, for compressed batches (the pipeline runs there). */
  uzipP2pRunAsync: {
    name: "uzipP2pRun",
    parameters: ["u64", "buffer", "u32", "u64", "u32"],
    result: "i32",
    nonblocking: true,
  },
  /** (comm, stream, timeoutMs) on a worker thread. */
  uzipCommSynchronizeAsync: {
    name: "uzipCommSynchronize",
    parameters: ["u64", "u64", "u32"],
    result: "i32",
    nonblocking: true,
  },
  uzipCommSynchronize: { parameters: ["u64", "u64", "u32"], result: "i32" },
  /** (comm, u64 out[cap], cap, u32* outCount): bytes on the wire per op of the last P2P batch. */
  uzipP2pLastWireBytes: { parameters: ["u64", "buffer", "u32", "buffer"], result: "i32" },
  /** (comm, chunkBytes, codecSms); 0 keeps a setting. */
  uzipP2pConfigure: { parameters: ["u64", "u64", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;
