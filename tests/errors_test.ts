// Status codes, typed error classes, unwrap() with the library's last-error message, and the message
// of a library that cannot be opened.
import { assert, assertEquals, assertInstanceOf, assertThrows } from "./_assert.ts";
import {
  BufferTooSmallError,
  ChecksumError,
  CorruptStreamError,
  CudaError,
  errorFor,
  InternalError,
  InvalidArgumentError,
  lastNativeError,
  NcclError,
  NoDeviceError,
  OutOfMemoryError,
  Status,
  statusName,
  TimeoutError,
  TruncatedStreamError,
  UnsupportedError,
  UzipError,
} from "../mod.ts";
import { cString, native } from "../ffi/deno.ts";
import { unwrap } from "../src/errors.ts";

Deno.test("errorFor maps every status to its class", () => {
  const expected: [number, new (m: string) => UzipError][] = [
    [Status.INVALID_ARG, InvalidArgumentError],
    [Status.CORRUPT, CorruptStreamError],
    [Status.TRUNCATED, TruncatedStreamError],
    [Status.BUFFER_TOO_SMALL, BufferTooSmallError],
    [Status.UNSUPPORTED, UnsupportedError],
    [Status.CHECKSUM, ChecksumError],
    [Status.CUDA, CudaError],
    [Status.NO_DEVICE, NoDeviceError],
    [Status.NCCL, NcclError],
    [Status.OUT_OF_MEMORY, OutOfMemoryError],
    [Status.TIMEOUT, TimeoutError],
    [Status.INTERNAL, InternalError],
  ];
  for (const [status, Class] of expected) {
    const e = errorFor(status, "why");
    assertInstanceOf(e, Class);
    assertInstanceOf(e, UzipError);
    assertEquals([e.status, e.statusName, e.nativeMessage, e.name], [
      status,
      statusName(status),
      "why",
      Class.name,
    ]);
    assertEquals(e.message, `${statusName(status)}: why`);
  }
  const unknown = errorFor(99, "odd");
  assertEquals([unknown.constructor, unknown.statusName], [UzipError, "UNKNOWN"]);
});

Deno.test("the TS status names agree with the library's uzipStatusName", () => {
  for (let s = 0; s <= 13; s++) {
    assertEquals(statusName(s), cString(native().uzipStatusName(s)), `status ${s}`);
  }
});

Deno.test("unwrap passes OK and throws the typed error with uzipLastError's message", () => {
  unwrap(Status.OK);
  const info = new BigUint64Array(17);
  const status = native().uzipInspect(new Uint8Array(10), 10n, info);
  assertEquals(status, Status.TRUNCATED);
  const message = lastNativeError();
  assert(message.length > 0, "the library explains a failure");
  const e = assertThrows(() => unwrap(status));
  assertInstanceOf(e, TruncatedStreamError);
  assertEquals(e.nativeMessage, message);
});

Deno.test("an unopenable library names UZIP_LIB and the build command", async () => {
  const code = `import { compress } from ${JSON.stringify(new URL("../mod.ts", import.meta.url).href)};
try { compress(new Uint8Array(4), "bytes"); } catch (e) { console.log(e.name + "|" + e.message); }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    env: { UZIP_LIB: "/nonexistent/libuzip.so" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert(text.startsWith("LibraryLoadError|"), text + new TextDecoder().decode(out.stderr));
  assert(text.includes("/nonexistent/libuzip.so") && text.includes("UZIP_LIB"), text);
  assert(text.includes("deno task build"), text);
});
