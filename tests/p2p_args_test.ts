// P2P argument checks, on any machine: a tensor's offset and count are validated in TS before anything
// reaches the library (a bad one throws InvalidArgumentError), so no transfer touches memory outside the
// buffer. The communicator and buffer here are stand-ins: the checks must fire before either is used.
import assert from "node:assert/strict";
import type { Communicator } from "../src/comm.ts";
import type { DeviceBuffer } from "../src/device.ts";
import { native } from "../ffi/deno.ts";
import { InvalidArgumentError, Status } from "../src/errors.ts";
import { calibrate, p2p, type P2pOp } from "../src/p2p.ts";
import { cudaBuildTest } from "./_gpu.ts";

const comm = {
  timeoutMs: 1000,
  rank: 0,
  get handle(): bigint {
    throw new Error("the library was reached");
  },
};
const buffer = { bytes: 1024, ptr: 1n << 40n } as unknown as DeviceBuffer;

function rejects(op: Partial<P2pOp>, what: string) {
  const full = { kind: "send", peer: 1, buffer, dtype: "bf16", ...op } as P2pOp;
  return assert.rejects(
    p2p(comm as unknown as Communicator, [full], { compress: "never" }),
    (e: unknown) => e instanceof InvalidArgumentError && e.message.length > 10,
    what,
  );
}

Deno.test("p2p: offsets and counts outside the buffer are rejected before the library is called", async () => {
  await rejects({ offset: 1 }, "offset not a multiple of the width");
  await rejects({ offset: -2 }, "negative offset");
  await rejects({ offset: 1026 }, "offset past the end");
  await rejects({ offset: 2.5 }, "fractional offset");
  await rejects({ offset: 1000, count: 13 }, "count past the end from the offset");
  await rejects({ count: 513 }, "count past the end");
  await rejects({ dtype: "fp32", offset: 2 }, "offset not a multiple of fp32's width");
});

Deno.test("p2p: a tensor that fits reaches the library with its offset applied", async () => {
  // The stand-in communicator throws when its handle is read, which happens only after validation.
  for (
    const op of [{ offset: 1000, count: 12 }, { offset: 1024 }, { offset: 0 }, { dtype: "fp32", offset: 4 }]
  ) {
    const full = { kind: "send", peer: 1, buffer, dtype: "bf16", ...op } as P2pOp;
    await assert.rejects(
      p2p(comm as unknown as Communicator, [full], { compress: "never" }),
      /the library was reached/,
    );
  }
});

Deno.test("p2p to self: no link to calibrate; auto reaches the library without measuring one", async () => {
  await assert.rejects(
    calibrate(comm as unknown as Communicator, 0),
    (e: unknown) => e instanceof InvalidArgumentError && /this rank/.test(e.message),
  );
  // 8 MiB to self under "auto", with no link model yet: a calibration would throw the error above (or fail to
  // allocate without a GPU); skipping it, the batch goes straight to the library.
  const big = { bytes: 8 << 20, ptr: 1n << 40n } as unknown as DeviceBuffer;
  await assert.rejects(
    p2p(comm as unknown as Communicator, [
      { kind: "send", peer: 0, buffer: big, dtype: "bf16" },
      { kind: "recv", peer: 0, buffer: big, dtype: "bf16" },
    ], { compress: "auto" }),
    /the library was reached/,
  );
});

cudaBuildTest("p2p: the wire-bytes record of a handle that is no communicator is an invalid argument", () => {
  const lib = native();
  const out = new BigUint64Array(4), n = new Uint32Array(1);
  assert.equal(lib.uzipP2pLastWireBytes(0x1234_5678n, out, 4, n), Status.INVALID_ARG);
  assert.equal(lib.uzipP2pLastWireBytes(0x1234_5678n, out, 4, null), Status.INVALID_ARG, "null outCount");
});
