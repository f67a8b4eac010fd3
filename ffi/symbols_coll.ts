/**
 * FFI signatures of the compressed collectives (`nccl/uzip_coll.h`): the GPU entry points on a
 * communicator and the in-process simulation used by CI.
 *
 * @module
 */

/** Collective symbols. */
export const collSymbols = {
  /** (comm, send, recv, count, dtype, op, stream, mode) */
  uzipAllReduce: { parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"], result: "i32" },
  /** (comm, send, recv, recvCount, dtype, op, stream, mode) */
  uzipReduceScatter: { parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"], result: "i32" },
  /** (comm, send, recv, sendCount, dtype, stream, mode) */
  uzipAllGather: { parameters: ["u64", "u64", "u64", "u64", "i32", "u64", "i32"], result: "i32" },
  /** (comm, send, recv, count per peer, dtype, stream, mode) */
  uzipAllToAll: { parameters: ["u64", "u64", "u64", "u64", "i32", "u64", "i32"], result: "i32" },
  /** (comm, send, recv, count, dtype, root, stream, mode) */
  uzipBroadcast: { parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"], result: "i32" },
  /** (comm, send, recv, count, dtype, op, root, stream, mode) */
  uzipReduce: {
    parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "i32", "u64", "i32"],
    result: "i32",
  },
  // The same six functions on a worker thread (src/collectives.ts *Async): a compressed collective waits
  // on the host for coded sizes inside the call. Their failures are read through uzipCommLastError.
  uzipAllReduceAsync: {
    name: "uzipAllReduce",
    parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  uzipReduceScatterAsync: {
    name: "uzipReduceScatter",
    parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  uzipAllGatherAsync: {
    name: "uzipAllGather",
    parameters: ["u64", "u64", "u64", "u64", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  uzipAllToAllAsync: {
    name: "uzipAllToAll",
    parameters: ["u64", "u64", "u64", "u64", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  uzipBroadcastAsync: {
    name: "uzipBroadcast",
    parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  uzipReduceAsync: {
    name: "uzipReduce",
    parameters: ["u64", "u64", "u64", "u64", "i32", "i32", "i32", "u64", "i32"],
    result: "i32",
    nonblocking: true,
  },
  /** (comm, kind, bytesPerRank, dtype, mode, i32* outPath) */
  uzipCollResolveMode: { parameters: ["u64", "i32", "u64", "i32", "i32", "buffer"], result: "i32" },
  /** (comm, linkBps, compressBps, decompressBps, stepSeconds, allReduceBps, allGatherBps); zeros forget */
  uzipCollSetModel: { parameters: ["u64", "f64", "f64", "f64", "f64", "f64", "f64"], result: "i32" },
  /** (chunkElems) */
  uzipCollConfigure: { parameters: ["u64"], result: "i32" },
  /**
   * (kind, nranks, dtype, op, count, root, compress, chunkElems, flags, sendAll, sendStride, recvAll,
   * recvStride, timeoutMs, u64* stats2). Blocking: the ranks are threads in native code, and the
   * error message is read on the calling thread.
   */
  uzipSimulateCollective: {
    parameters: [
      "i32",
      "i32",
      "i32",
      "i32",
      "u64",
      "i32",
      "i32",
      "u64",
      "u32",
      "buffer",
      "u64",
      "buffer",
      "u64",
      "u32",
      "buffer",
    ],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;
