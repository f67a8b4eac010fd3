// The collectives' argument checks and their nonblocking twins, on any machine: bad arguments and a
// handle that is no communicator give typed errors, thrown by the blocking calls and as rejections by
// the *Async ones (whose C call runs on a worker thread).
import assert from "node:assert/strict";
import {
  allGather,
  allGatherAsync,
  allReduce,
  allReduceAsync,
  allToAllAsync,
  broadcastAsync,
  type CollectiveOptions,
  reduceAsync,
  reduceScatterAsync,
} from "../src/collectives.ts";
import { InvalidArgumentError } from "../src/errors.ts";

const NOT_A_COMM = 0x1234_5678n;
const isInvalid = (e: unknown) => {
  assert.ok(e instanceof InvalidArgumentError, String(e));
  assert.ok(e.message.length > 20 && !/status \d/.test(e.message), e.message); // the library's words
  return true;
};

Deno.test("collectives: a handle that is no communicator is an InvalidArgumentError, blocking or not", async () => {
  assert.throws(() => allReduce(NOT_A_COMM, 16n, 16n, 4, "bf16", "sum"), isInvalid);
  assert.throws(() => allGather(NOT_A_COMM, 16n, 16n, 4, "bf16"), isInvalid);
  await assert.rejects(allReduceAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", "sum"), isInvalid);
  await assert.rejects(reduceScatterAsync(NOT_A_COMM, 16n, 16n, 4, "fp32", "max"), isInvalid);
  await assert.rejects(allGatherAsync(NOT_A_COMM, 16n, 16n, 4, "fp16"), isInvalid);
  await assert.rejects(allToAllAsync(NOT_A_COMM, 16n, 16n, 4, "bytes"), isInvalid);
  await assert.rejects(broadcastAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", 0), isInvalid);
  await assert.rejects(reduceAsync(NOT_A_COMM, 16n, 16n, 4, "bf16", "avg", 0), isInvalid);
});

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
