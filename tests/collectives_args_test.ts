// The collectives' argument checks and their nonblocking twins, on any machine: bad arguments, a handle
// that is no communicator, and DeviceBuffers too small for the collective, freed or on another device
// give typed errors, thrown by the blocking calls and as rejections by the *Async ones (whose C call runs
// on a worker thread), and nothing reaches the library or touches device memory.
import assert from "node:assert/strict";
import {
  allGather,
  allGatherAsync,
  allReduce,
  allReduceAsync,
  allToAll,
  allToAllAsync,
  broadcast,
  broadcastAsync,
  type CollectiveOptions,
  reduce,
  reduceAsync,
  reduceScatter,
  reduceScatterAsync,
} from "../src/collectives.ts";
import type { DeviceBuffer } from "../src/device.ts";
import { InvalidArgumentError } from "../src/errors.ts";
import { cudaBuildTest } from "./_gpu.ts";

const NOT_A_COMM = 0x1234_5678n;
const isInvalid = (e: unknown) => {
  assert.ok(e instanceof InvalidArgumentError, String(e));
  assert.ok(e.message.length > 20 && !/status \d/.test(e.message), e.message); // the library's words
  return true;
};

cudaBuildTest(
  "collectives: a handle that is no communicator is an InvalidArgumentError, blocking or not",
  async () => {
    assert.throws(() => allReduce(NOT_A_COMM, 16n, 16n, 4, "bf16", "sum"), isInvalid);
    assert.throws(() => allGather(NOT_A_COMM, 16n, 16n, 4, "bf16"), isInvalid);
    await assert.rejects(allReduceAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", "sum"), isInvalid);
    await assert.rejects(reduceScatterAsync(NOT_A_COMM, 16n, 16n, 4, "fp32", "max"), isInvalid);
    await assert.rejects(allGatherAsync(NOT_A_COMM, 16n, 16n, 4, "fp16"), isInvalid);
    await assert.rejects(allToAllAsync(NOT_A_COMM, 16n, 16n, 4, "bytes"), isInvalid);
    await assert.rejects(broadcastAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", 0), isInvalid);
    await assert.rejects(reduceAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", "avg", 0), isInvalid);
  },
);

Deno.test("collectives: bad arguments reject the nonblocking forms before any native call", async () => {
  await assert.rejects(allReduceAsync(NOT_A_COMM, 16n, 16n, -1, "bf16", "sum"), isInvalid);
  // @ts-expect-error: not a reduction op
  await assert.rejects(allReduceAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", "mean"), isInvalid);
  const sometimes = { compress: "sometimes" } as unknown as CollectiveOptions;
  await assert.rejects(allGatherAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", undefined, sometimes), isInvalid);
  let settled = false;
  const p = allReduceAsync(NOT_A_COMM, 16n, 16n, -1, "bf16", "sum").catch(() => (settled = true));
  assert.equal(settled, false, "a rejection, not a synchronous throw");
  await p;
  assert.equal(settled, true);
});

// Stand-ins, as in tests/p2p_args_test.ts: the checks must fire before the handle is read.
const comm = (rank: number, size = 4, device = 0) => ({
  rank,
  size,
  device,
  get handle(): bigint {
    throw new Error("the library was reached");
  },
});
const buf = (bytes: number, device = 0, freed = false) =>
  ({ bytes, device, freed, ptr: 1n << 40n }) as unknown as DeviceBuffer;
const REACHED = /the library was reached/;

Deno.test("collectives: DeviceBuffer arguments too small for the collective are rejected before the call", () => {
  const c = comm(1);
  // all-reduce: count elements in both.
  assert.throws(() => allReduce(c, buf(1024), buf(1024), 513, "bf16", "sum"), isInvalid);
  assert.throws(() => allReduce(c, buf(1024), buf(1000), 512, "bf16", "sum"), isInvalid);
  assert.throws(() => allReduce(c, buf(1024), buf(1024), 512, "bf16", "sum"), REACHED);
  // reduce-scatter: nranks x recvCount in, recvCount out.
  assert.throws(() => reduceScatter(c, buf(1024), buf(1024), 129, "fp16", "max"), isInvalid);
  assert.throws(() => reduceScatter(c, buf(1024), buf(256), 128, "fp16", "max"), REACHED);
  // all-gather: sendCount in, nranks x sendCount out; all-to-all: nranks x count both ways.
  assert.throws(() => allGather(c, buf(256), buf(1023), 128, "bf16"), isInvalid);
  assert.throws(() => allGather(c, buf(256), buf(1024), 128, "bf16"), REACHED);
  assert.throws(() => allToAll(c, buf(1024), buf(1024), 65, "fp32"), isInvalid);
  assert.throws(() => allToAll(c, buf(1024), buf(1024), 64, "fp32"), REACHED);
  // broadcast reads send on the root only; reduce writes recv on the root only.
  assert.throws(() => broadcast(comm(2), buf(8), buf(1024), 512, "bf16", 2), isInvalid);
  assert.throws(() => broadcast(comm(1), buf(8), buf(1024), 512, "bf16", 2), REACHED);
  assert.throws(() => broadcast(comm(1), null, buf(1024), 512, "bf16", 2), REACHED);
  assert.throws(() => reduce(comm(0), buf(1024), buf(8), 512, "bf16", "sum", 0), isInvalid);
  assert.throws(() => reduce(comm(3), buf(1024), null, 512, "bf16", "sum", 0), REACHED);
  assert.throws(() => reduce(comm(3), buf(1024), buf(8), 512, "bf16", "sum", 0), REACHED);
  // Raw pointers, and buffers under a raw handle, are the caller's word (as with NCCL).
  assert.throws(() => allReduce(c, 1n << 40n, 1n << 40n, 1 << 30, "bf16", "sum"), REACHED);
});

Deno.test("collectives: a buffer on another device, or freed, is rejected; so are the async forms", async () => {
  assert.throws(() => allReduce(comm(0, 2, 1), buf(1024, 0), buf(1024, 1), 8, "bf16", "sum"), isInvalid);
  assert.throws(() => allGather(comm(0, 2, 0), buf(1024, 0, true), buf(1024), 8, "bf16"), isInvalid);
  await assert.rejects(allReduceAsync(comm(1), buf(1024), buf(1024), 513, "bf16", "sum"), isInvalid);
  await assert.rejects(allToAllAsync(comm(1), buf(1024), buf(1024, 1), 8, "bf16"), isInvalid);
  await assert.rejects(broadcastAsync(comm(2), buf(8), buf(1024), 512, "bf16", 2), isInvalid);
  await assert.rejects(reduceAsync(comm(0), buf(1024), buf(8), 512, "bf16", "sum", 0), isInvalid);
  await assert.rejects(reduceScatterAsync(comm(0), buf(1024), buf(1024), 129, "bf16", "sum"), isInvalid);
  await assert.rejects(allGatherAsync(comm(0), buf(256), buf(1023), 128, "bf16"), isInvalid);
  await assert.rejects(allReduceAsync(comm(1), buf(1024), buf(1024), 512, "bf16", "sum"), REACHED);
});
