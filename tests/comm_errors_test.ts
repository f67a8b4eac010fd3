// Communicator errors, on any machine: an init that cannot succeed (no NCCL, no GPU, or on a GPU machine a
// bogus id with a peer that never comes) rejects with a typed error that carries libuzip's message, even
// though the init ran on a worker thread (nonblocking FFI) whose thread-local last error JS cannot read.
import assert from "node:assert/strict";
import { Communicator } from "../src/comm.ts";
import { UzipError } from "../src/errors.ts";
import { cudaBuildTest } from "./_gpu.ts";

cudaBuildTest("comm: a failed init rejects with a typed error and its message", async () => {
  await assert.rejects(
    Communicator.init({ id: new Uint8Array(128), rank: 0, size: 2, timeoutMs: 3000 }),
    (e: unknown) => {
      assert.ok(e instanceof UzipError, String(e));
      assert.ok(!/no message/.test(e.message) && e.message.length > 20, e.message);
      return true;
    },
  );
});
