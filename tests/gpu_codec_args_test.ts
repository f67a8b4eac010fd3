// GPU codec argument checks, on any machine (no GPU needed): a decode's dtype is checked before the
// library or the context is touched, and the C entry refuses a dtype that is neither -1 nor an id before
// it looks at the context handle.
import assert from "node:assert/strict";
import { cString, native } from "../ffi/deno.ts";
import type { DeviceBuffer, Stream } from "../src/device.ts";
import { InvalidArgumentError, Status } from "../src/errors.ts";
import { GpuCodec } from "../src/gpu_codec.ts";
import type { DType } from "../src/dtype.ts";
import { cudaBuildTest } from "./_gpu.ts";

const buffer = { bytes: 1024, ptr: 1n << 40n } as unknown as DeviceBuffer;
const stream = { handle: 0n } as unknown as Stream;
const codec = Object.create(GpuCodec.prototype, {
  handle: {
    get(): bigint {
      throw new Error("the library was reached");
    },
  },
}) as GpuCodec;

Deno.test("GpuCodec.decompress: an unknown dtype is an invalid argument before the library is called", () => {
  assert.throws(
    () => codec.decompress(buffer, 64, buffer, stream, { dtype: "fp64" as DType }),
    (e: unknown) => e instanceof InvalidArgumentError && /fp64/.test(e.message),
  );
  // A known one gets as far as the context (the stand-in's handle): the dtype only picks a kernel.
  assert.throws(
    () => codec.decompress(buffer, 64, buffer, stream, { dtype: "fp32" }),
    /the library was reached/,
  );
});

cudaBuildTest(
  "uzipGpuDecompressAs: a dtype that is neither -1 nor an id, or a handle that is no context, is refused",
  () => {
    const lib = native();
    const call = (dtype: number) => {
      const st = lib.uzipGpuDecompressAs(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n, dtype);
      return { st, message: cString(lib.uzipLastError()) };
    };
    for (const dtype of [-3, -2, 6, 1000]) {
      const { st, message } = call(dtype);
      assert.equal(st, Status.INVALID_ARG);
      assert.match(message, /dtype/, `dtype ${dtype} is what is refused`);
    }
    for (const dtype of [-1, 1, 3]) {
      const { st, message } = call(dtype);
      assert.equal(st, Status.INVALID_ARG);
      assert.match(message, /not a GPU codec context/, `dtype ${dtype} passes, the handle is refused`);
    }
    assert.equal(lib.uzipGpuDecompress(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n), Status.INVALID_ARG);
    assert.match(cString(lib.uzipLastError()), /not a GPU codec context/);
  },
);

cudaBuildTest("uzipGpuDecompressLanes: a handle that is no context is refused before any launch", () => {
  const lib = native();
  assert.equal(
    lib.uzipGpuDecompressLanes(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n, -1),
    Status.INVALID_ARG,
  );
  assert.match(cString(lib.uzipLastError()), /not a GPU codec context/);
});

cudaBuildTest("uzipGpuDecompressPairs: a handle that is no context is refused before any launch", () => {
  const lib = native();
  assert.equal(lib.uzipGpuDecompressPairs(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n), Status.INVALID_ARG);
  assert.match(cString(lib.uzipLastError()), /not a GPU codec context/);
});

cudaBuildTest("uzipGpuDecompressLean: a handle that is no context is refused before any launch", () => {
  const lib = native();
  assert.equal(lib.uzipGpuDecompressLean(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n), Status.INVALID_ARG);
  assert.match(cString(lib.uzipLastError()), /not a GPU codec context/);
});

cudaBuildTest(
  "uzipGpuDecompressEither: a bad dtype and a handle that is no context are refused before any launch",
  () => {
    const lib = native();
    assert.equal(
      lib.uzipGpuDecompressEither(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n, 99),
      Status.INVALID_ARG,
    );
    assert.match(cString(lib.uzipLastError()), /dtype 99 is neither -1 nor a dtype id/);
    assert.equal(
      lib.uzipGpuDecompressEither(0n, 1n << 40n, 64n, 1n << 41n, 64n, 0n, 0n, -1),
      Status.INVALID_ARG,
    );
    assert.match(cString(lib.uzipLastError()), /not a GPU codec context/);
  },
);

Deno.test('GpuCodec.decompress: lean other than a boolean or "maybe" is an invalid argument before the library is called', () => {
  for (const lean of ["yes", 1, null]) {
    assert.throws(
      () => codec.decompress(buffer, 64, buffer, stream, { lean: lean as unknown as boolean }),
      (e: unknown) =>
        e instanceof InvalidArgumentError && /lean must be a boolean or "maybe"/.test(e.message),
    );
  }
});

Deno.test("GpuCodec.decompress: two of lanes, pairs and lean are an invalid argument before the library is called", () => {
  for (
    const opts of [
      { lanes: true, pairs: true },
      { lanes: true, lean: true },
      { pairs: true, lean: true },
      { lanes: true, lean: "maybe" as const },
    ]
  ) {
    assert.throws(
      () => codec.decompress(buffer, 64, buffer, stream, opts),
      (e: unknown) => e instanceof InvalidArgumentError && /at most one/.test(e.message),
    );
  }
});
