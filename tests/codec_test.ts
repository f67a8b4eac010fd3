// The CPU codec through the TS API: round trips of every dtype on generated data (special bit patterns
// included), inspect, the size bound, and typed errors for bad arguments and damaged streams.
import { assert, assertEquals, assertInstanceOf, assertThrows } from "./_assert.ts";
import {
  BufferTooSmallError,
  ChecksumError,
  compress,
  compressAsync,
  type CompressOptions,
  CorruptStreamError,
  decompress,
  decompressAsync,
  defaultLog2Block,
  type DType,
  DTYPES,
  dtypeWidth,
  inspect,
  InvalidArgumentError,
  maxCompressedSize,
  nativeVersion,
  TruncatedStreamError,
  UnsupportedError,
  UzipError,
} from "../mod.ts";
import { type DatasetName, makeDataset, specialPatterns, tiledSpecials } from "../bench/data/synthetic.ts";
import { RUN_SEED } from "./_seed.ts";

const assertRejectsTyped = async (
  fn: () => Promise<unknown>,
  Class: new (...a: never[]) => UzipError,
): Promise<void> => {
  try {
    await fn();
  } catch (e) {
    assertInstanceOf(e, Class, `expected ${Class.name}, got ${e}`);
    return;
  }
  throw new Error(`expected a rejection with ${Class.name}`);
};

const assertThrowsTyped = (fn: () => unknown, Class: new (...a: never[]) => UzipError): UzipError => {
  try {
    fn();
  } catch (e) {
    assertInstanceOf(e, Class, `expected ${Class.name}, got ${e}`);
    assert((e as UzipError).nativeMessage.length > 0, "typed errors carry a message");
    return e as UzipError;
  }
  throw new Error(`expected ${Class.name}, nothing was thrown`);
};

function sameBytes(a: Uint8Array, b: Uint8Array, what: string): void {
  assertEquals(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) throw new Error(`${what}: byte ${i} differs (${a[i]} != ${b[i]})`);
  }
}

const OPTIONS = [
  {},
  { checksum: true },
  { split: true },
  { checksum: true, split: true, log2Block: 10 },
  {
    log2Block: 16,
  },
  { lanes: true },
  { lanes: true, checksum: true, log2Block: 10 },
];

function roundTrip(data: Uint8Array, dtype: DType, opts: object, what: string): Uint8Array {
  const stream = compress(data, dtype, opts);
  const count = data.length / dtypeWidth(dtype);
  assert(stream.length <= maxCompressedSize(count, dtype, opts), `${what}: within maxCompressedSize`);
  const info = inspect(stream);
  assertEquals(info.dtype, dtype);
  assertEquals(info.count, count);
  assertEquals(info.rawBytes, data.length);
  assertEquals(info.totalBytes, stream.length);
  sameBytes(decompress(stream), data, what);
  return stream;
}

for (const dtype of DTYPES) {
  Deno.test(`round trip ${dtype}: data sets × options × sizes`, () => {
    for (const size of [0, 1, 17, 1023, 16384, 16385, 70000]) {
      for (const name of ["gaussian", "random", "sparse", "constant", "zeros"] as const) {
        const data = makeDataset(name, dtype, size, RUN_SEED + 1234 + size);
        for (const opts of OPTIONS) {
          roundTrip(data, dtype, opts, `${dtype}/${name}/${size}/${JSON.stringify(opts)}`);
        }
      }
    }
  });

  Deno.test(`round trip ${dtype}: special bit patterns (±0, subnormals, ±Inf, NaN payloads)`, () => {
    for (const count of [specialPatterns(dtype).length / dtypeWidth(dtype), 50_000]) {
      for (const opts of OPTIONS) {
        roundTrip(tiledSpecials(dtype, count), dtype, opts, `${dtype} specials ${count}`);
      }
    }
  });
}

Deno.test("gaussian bf16 weights compress; random bytes do not expand beyond the bound", () => {
  const bf16 = makeDataset("gaussian", "bf16", 1 << 18, 7);
  const info = inspect(compress(bf16, "bf16"));
  assert(info.ratio < 0.8, `bf16 gaussian ratio ${info.ratio} (compressed/raw) should be under 0.8`);
  assert(info.symbolModes.ans > 0, "exponent planes are ANS-coded");
  const rnd = makeDataset("random", "bytes", 1 << 18, 8);
  const s = compress(rnd, "bytes");
  assert(s.length <= maxCompressedSize(rnd.length, "bytes"));
  assertEquals(inspect(s).symbolModes.raw, inspect(s).nblocks, "random blocks are stored raw");
});

Deno.test("inspect reports flags, block size and plane sizes", () => {
  const data = makeDataset("gaussian", "fp32", 40_000, 3);
  const info = inspect(compress(data, "fp32", { checksum: true, split: true, log2Block: 12 }));
  assertEquals([info.checksum, info.split, info.log2Block, info.nblocks], [
    true,
    true,
    12,
    Math.ceil(40_000 / 4096),
  ]);
  assert(info.storedChecksum !== 0);
  assertEquals(
    info.remainderBytes,
    Math.ceil((40_000 * 3) / 16) * 16,
    "split plane holds the raw remainders",
  );
  assert(info.symbolBytes + info.remainderBytes < info.totalBytes);
  const plain = inspect(compress(data, "fp32"));
  // 2^13: the default block size of an fp32 tensor of at most 16 MiB (defaultLog2Block).
  assertEquals([plain.checksum, plain.split, plain.log2Block, plain.storedChecksum], [false, false, 13, 0]);
});

Deno.test("the default block size: 2^13 for bf16 and fp32 up to 16 MiB, 2^15 for fp8 and bf16 from 2^30 elements, else 2^14", () => {
  const MiB16 = 16 * 1024 * 1024;
  const cases: [number, DType, number][] = [
    [1, "bf16", 13],
    [MiB16 / 2, "bf16", 13],
    [MiB16 / 2 + 1, "bf16", 14],
    [MiB16 / 4, "fp32", 13],
    [MiB16 / 4 + 1, "fp32", 14],
    [1000, "fp16", 14],
    [1000, "fp8e4m3", 14],
    [1000, "fp8e5m2", 14],
    [1000, "bytes", 14],
    // fp8 and bf16 from 2^30 elements (the bound below is the C codec's, so a rule missing here fails it).
    [2 ** 30 - 1, "fp8e4m3", 14],
    [2 ** 30, "fp8e4m3", 15],
    [2 ** 30 - 1, "fp8e5m2", 14],
    [2 ** 30, "fp8e5m2", 15],
    [2 ** 30, "fp16", 14],
    [2 ** 30 - 1, "bf16", 14],
    [2 ** 30, "bf16", 15],
    [2 ** 30, "fp32", 14],
    [2 ** 30, "bytes", 14],
  ];
  for (const [count, dtype, log2] of cases) {
    assertEquals(defaultLog2Block(count, dtype), log2, `${dtype} x ${count}`);
    assertEquals(defaultLog2Block(BigInt(count), dtype), log2, `${dtype} x ${count} (bigint)`);
    assertEquals(maxCompressedSize(count, dtype), maxCompressedSize(count, dtype, { log2Block: log2 }));
  }
  // What the C codec does with no block size asked for, on both sides of the 16 MiB boundary.
  for (const count of [MiB16 / 2, MiB16 / 2 + 1]) {
    const info = inspect(compress(makeDataset("gaussian", "bf16", count, 5), "bf16"));
    assertEquals(info.log2Block, defaultLog2Block(count, "bf16"), `bf16 x ${count}`);
  }
  assertEquals(inspect(compress(makeDataset("gaussian", "fp16", 5000, 5), "fp16")).log2Block, 14);
});

Deno.test("maxCompressedSize follows the published formula", () => {
  for (const dtype of DTYPES) {
    for (const count of [0, 1, 16384, 16385, 1_000_000]) {
      const nb = Math.ceil(count / 2 ** defaultLog2Block(count, dtype));
      const payloadOffset = 64 + Math.ceil((8 * nb) / 16) * 16;
      assertEquals(maxCompressedSize(count, dtype), payloadOffset + count * dtypeWidth(dtype) + 30 * nb);
    }
  }
  assertEquals(maxCompressedSize(BigInt(16384), "bf16"), maxCompressedSize(16384, "bf16"));
});

Deno.test("decompress into a caller buffer: larger is fine, smaller is BufferTooSmallError", () => {
  const data = makeDataset("gaussian", "bf16", 5000, 9);
  const stream = compress(data, "bf16");
  const big = new Uint8Array(data.length + 100);
  const out = decompress(stream, big);
  assertEquals(out.buffer, big.buffer);
  sameBytes(out, data, "into");
  assertThrowsTyped(() => decompress(stream, new Uint8Array(data.length - 1)), BufferTooSmallError);
  // Extra bytes after a stream are allowed.
  const padded = new Uint8Array(stream.length + 32);
  padded.set(stream);
  sameBytes(decompress(padded), data, "padded stream");
});

Deno.test("lane streams: flags in the header, lane-coded blocks, a ratio near the default coding's", () => {
  const data = makeDataset("gaussian", "bf16", 1 << 18, 11);
  const lanes = inspect(compress(data, "bf16", { lanes: true, log2Block: 14 }));
  const plain = inspect(compress(data, "bf16", { split: true, log2Block: 14 }));
  assertEquals([lanes.lanes, lanes.split, plain.lanes], [true, true, false]);
  assertEquals(lanes.symbolModes.ans, lanes.nblocks, "every block lane-coded");
  // 32 lane states and counts per block, and a table from an eighth of the block: within 0.3% of raw.
  assert(lanes.ratio < plain.ratio + 0.003, `lanes ratio ${lanes.ratio} against ${plain.ratio}`);
  // Lane streams take blocks of at most 2^14 elements.
  assertThrowsTyped(() => compress(data, "bf16", { lanes: true, log2Block: 15 }), InvalidArgumentError);
});

// roundTrip of every dtype x data set x size x option set (data seeded RUN_SEED + seed + size), named `label ...`.
function roundTripGrid(
  label: string,
  dtypes: readonly DType[],
  names: readonly DatasetName[],
  sizes: readonly number[],
  optsList: readonly object[],
  seed: number,
): void {
  for (const dtype of dtypes) {
    for (const name of names) {
      for (const size of sizes) {
        const data = makeDataset(name, dtype, size, RUN_SEED + seed + size);
        for (const opts of optsList) {
          roundTrip(data, dtype, opts, `${label} ${dtype}/${name}/${size}/${JSON.stringify(opts)}`);
        }
      }
    }
  }
}

Deno.test("pair coding: bf16 and fp32 round trips, pair-coded blocks, the ratio of the default coding", () => {
  roundTripGrid("pairs", ["bf16", "fp32"], ["gaussian", "random", "sparse", "constant"], [
    0,
    1,
    17,
    16385,
    70001,
  ], [
    { pairs: true },
    { pairs: true, split: true, checksum: true, log2Block: 15 },
  ], 77);
  const data = makeDataset("gaussian", "bf16", 1 << 18, 12);
  const pairs = inspect(compress(data, "bf16", { pairs: true, split: true, log2Block: 14 }));
  const plain = inspect(compress(data, "bf16", { split: true, log2Block: 14 }));
  assertEquals([pairs.pairs, pairs.split, plain.pairs], [true, true, false]);
  assertEquals(pairs.symbolModes.ans, pairs.nblocks, "every block pair-coded");
  assert(pairs.ratio < plain.ratio + 0.002, `pairs ratio ${pairs.ratio} against ${plain.ratio}`);
  // Only the 8-bit exponent symbols of bf16 and fp32, and not with lane streams.
  for (const dtype of ["fp16", "fp8e4m3", "fp8e5m2"] as const) {
    assertThrowsTyped(() => compress(new Uint8Array(64), dtype, { pairs: true }), InvalidArgumentError);
  }
  assertThrowsTyped(() => compress(data, "bf16", { pairs: true, lanes: true }), InvalidArgumentError);
});

Deno.test("lean sections: round trips in both layouts, fewer bytes than the default coding", () => {
  // 64 and 4096: whole seeded segments; 4097: a last block too short to seed; 70001: several blocks.
  roundTripGrid(
    "lean",
    ["bf16", "fp16", "fp32", "fp8e4m3"],
    ["gaussian", "random", "sparse", "constant", "zeros"],
    [0, 1, 64, 4096, 4097, 70001],
    [{ lean: true }, { lean: true, split: true, checksum: true, log2Block: 12 }],
    91,
  );
  const data = makeDataset("gaussian", "bf16", 1 << 18, 13);
  const lean = inspect(compress(data, "bf16", { lean: true, split: true, log2Block: 12 }));
  const plain = inspect(compress(data, "bf16", { split: true, log2Block: 12 }));
  assertEquals([lean.lean, lean.split, plain.lean], [true, true, false]);
  // 64 blocks, each ~58 bytes of seeded states and ~30 of table less (docs/FORMAT.md "Lean sections").
  assert(plain.totalBytes - lean.totalBytes > 64 * 70, `lean ${lean.totalBytes} against ${plain.totalBytes}`);
  assertThrowsTyped(() => compress(data, "bf16", { lean: true, pairs: true }), InvalidArgumentError);
  assertThrowsTyped(() => compress(data, "bf16", { lean: true, lanes: true }), InvalidArgumentError);
});

Deno.test("the default coding: lean sections for split bf16, fp16 and fp32 up to 2^24 elements, unless told otherwise", () => {
  const coding = (dtype: "bf16" | "fp16" | "fp32" | "fp8e4m3", count: number, opts: CompressOptions) => {
    const info = inspect(compress(makeDataset("gaussian", dtype, count, 29), dtype, opts));
    assertEquals(
      maxCompressedSize(count, dtype, opts) >= info.totalBytes,
      true,
      "the bound holds the stream",
    );
    return [info.lean, info.log2Block];
  };
  // bf16 and fp32 at 2^12 (their plain default 2^13), fp16 at 2^13 (its plain default 2^14).
  for (const [dtype, lean, plain] of [["bf16", 12, 13], ["fp32", 12, 13], ["fp16", 13, 14]] as const) {
    for (const count of [1, 4097, 70_001]) {
      assertEquals(coding(dtype, count, { split: true }), [true, lean], `${dtype} ${count} split`);
      assertEquals(
        coding(dtype, count, { split: true, checksum: true }),
        [true, lean],
        `${dtype} ${count} checksum`,
      );
      // The same bytes as asking for them.
      const data = makeDataset("gaussian", dtype, count, 31);
      assertEquals(
        compress(data, dtype, { split: true }),
        compress(data, dtype, { split: true, lean: true, log2Block: lean }),
        `${dtype} ${count}: the default's bytes`,
      );
      assertEquals(
        coding(dtype, count, { split: true, lean: false }),
        [false, plain],
        `${dtype} ${count} lean: false`,
      );
      assertEquals(
        coding(dtype, count, { split: true, log2Block: plain }),
        [false, plain],
        `${dtype} ${count} log2Block`,
      );
      assertEquals(coding(dtype, count, {}), [false, plain], `${dtype} ${count} default layout`);
    }
  }
  assertEquals(coding("fp8e4m3", 70_001, { split: true }), [false, 14], "fp8 keeps its coding");
  // Lean 2^12 (bf16, fp32) up to 2^23 elements, lean 2^13 up to 2^24, then the default coding in 2^14 blocks.
  assertEquals(coding("fp32", 8 << 20, { split: true }), [true, 12], "fp32 at 2^23 elements");
  assertEquals(coding("fp32", (8 << 20) + 1, { split: true }), [true, 13], "fp32 past 2^23 elements");
  assertEquals(coding("bf16", (8 << 20) + 1, { split: true }), [true, 13], "bf16 past 2^23 elements");
  assertEquals(coding("fp16", 16 << 20, { split: true }), [true, 13], "fp16 at 2^24 elements");
  assertEquals(coding("bf16", (16 << 20) + 1, { split: true }), [false, 14], "bf16 past 2^24 elements");
});

Deno.test("bad arguments throw InvalidArgumentError", () => {
  assertThrowsTyped(() => compress(new Uint8Array(3), "bf16"), InvalidArgumentError);
  assertThrowsTyped(() => compress(new Uint8Array(6), "fp32"), InvalidArgumentError);
  assertThrowsTyped(() => compress(new Uint8Array(4), "fp64" as DType), InvalidArgumentError);
  assertThrowsTyped(() => compress(new Uint8Array(4), "bytes", { log2Block: 9 }), InvalidArgumentError);
  assertThrowsTyped(() => compress(new Uint8Array(4), "bytes", { log2Block: 17 }), InvalidArgumentError);
  assertThrowsTyped(() => compress(new Uint8Array(4), "bytes", { log2Block: 12.5 }), InvalidArgumentError);
  assertThrowsTyped(() => compress([1, 2] as unknown as Uint8Array, "bytes"), InvalidArgumentError);
  assertThrowsTyped(() => maxCompressedSize(-1, "bf16"), InvalidArgumentError);
  assertThrowsTyped(() => maxCompressedSize(1.5, "bf16"), InvalidArgumentError);
  assert(
    /MAX_SAFE_INTEGER/.test(
      assertThrowsTyped(() => maxCompressedSize(2 ** 60, "bf16"), InvalidArgumentError).message,
    ),
  );
  // A transferred buffer: a typed error, not V8's "Cannot perform Construct on a detached ArrayBuffer".
  const stream = compress(new Uint16Array(64), "bf16");
  const ab = new ArrayBuffer(128);
  const view = new Uint16Array(ab);
  structuredClone(ab, { transfer: [ab] });
  assert(/detached/.test(assertThrowsTyped(() => compress(view, "bf16"), InvalidArgumentError).message));
  const into = new Uint8Array(4096);
  structuredClone(into.buffer, { transfer: [into.buffer] });
  assert(
    /detached/.test(
      assertThrowsTyped(() => compress(new Uint16Array(8), "bf16", { into }), InvalidArgumentError).message,
    ),
  );
  const gone = stream.slice();
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  assert(/detached/.test(assertThrowsTyped(() => decompress(gone), InvalidArgumentError).message));
  assert(/detached/.test(assertThrowsTyped(() => inspect(gone), InvalidArgumentError).message));
  assert(/detached/.test(assertThrowsTyped(() => decompress(stream, view), InvalidArgumentError).message));
});

Deno.test("truncated streams throw TruncatedStreamError", () => {
  const stream = compress(makeDataset("gaussian", "bf16", 30_000, 11), "bf16");
  for (const len of [0, 1, 63, 64, 200, stream.length - 1]) {
    assertThrowsTyped(() => decompress(stream.subarray(0, len)), TruncatedStreamError);
  }
});

Deno.test("stream format 2: the version byte, version-1 streams refused, the library's version is deno.json's", async () => {
  const stream = compress(makeDataset("gaussian", "bf16", 30_000, 13), "bf16");
  assertEquals(nativeVersion().format, 2);
  assertEquals(stream[4], 2, "the header's version byte");
  const old = stream.slice();
  old[4] = 1; // a version-1 stream (ANS states in [2^16, 2^32)): this build cannot decode it
  const e = assertThrowsTyped(() => decompress(old), UnsupportedError);
  assert(/version 1/.test(e.nativeMessage), e.nativeMessage);
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assertEquals(nativeVersion().library, denoJson.version);
});

Deno.test("forged headers throw CorruptStreamError", () => {
  const stream = compress(makeDataset("gaussian", "bf16", 30_000, 12), "bf16");
  for (const offset of [0, 5, 6, 7, 8, 24, 40, 56, 60]) {
    const bad = stream.slice();
    bad[offset] ^= 0x40;
    const e = assertThrows(() => decompress(bad));
    assertInstanceOf(e, UzipError);
    assert(
      e instanceof CorruptStreamError || e instanceof TruncatedStreamError,
      `offset ${offset}: ${e}`,
    );
  }
});

Deno.test("a damaged payload with a checksum throws ChecksumError or CorruptStreamError", () => {
  const data = makeDataset("random", "fp32", 30_000, 13); // raw remainders: a flip still decodes
  const stream = compress(data, "fp32", { checksum: true });
  const bad = stream.slice();
  bad[stream.length - 100] ^= 1;
  const e = assertThrows(() => decompress(bad));
  assert(e instanceof ChecksumError || e instanceof CorruptStreamError, String(e));
  // The same flip in a raw plane without a checksum decodes to different bytes, which is expected.
});

Deno.test("random single-byte damage never escapes as anything but a UzipError", () => {
  const data = makeDataset("gaussian", "bf16", 40_000, 14);
  const stream = compress(data, "bf16", { checksum: true });
  let seed = 99;
  for (let i = 0; i < 300; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const bad = stream.slice();
    bad[seed % bad.length] ^= 1 + ((seed >>> 16) % 255);
    try {
      sameBytes(decompress(bad), data, "a damaged stream that decodes must decode to the original");
    } catch (e) {
      assertInstanceOf(e, UzipError);
    }
  }
});

Deno.test("threads: the same stream at any count, the same decode, the same error for a damaged stream", () => {
  for (const dtype of ["bf16", "fp32", "fp8e4m3"] as DType[]) {
    const data = makeDataset("gaussian", dtype, 300_000 + 77, RUN_SEED + 41);
    const one = compress(data, dtype, { checksum: true, threads: 1, log2Block: 12 });
    for (const threads of [0, 2, 5]) {
      const many = compress(data, dtype, { checksum: true, threads, log2Block: 12 });
      sameBytes(many, one, `${dtype}: ${threads} threads write the single-threaded bytes`);
      sameBytes(decompress(one, undefined, { threads }), data, `${dtype}: decode on ${threads} threads`);
    }
    // Two damaged blocks: the error of the first in stream order, whatever the count.
    const bad = one.slice();
    bad[bad.length - 40] ^= 0x5a;
    bad[Math.floor(bad.length / 3)] ^= 0xa5;
    const messages = [1, 0, 3].map((threads) => {
      try {
        decompress(bad, undefined, { threads });
        return "decoded";
      } catch (e) {
        assertInstanceOf(e, UzipError);
        return `${e.constructor.name}: ${(e as UzipError).nativeMessage}`;
      }
    });
    assertEquals(messages[1], messages[0], `${dtype}: damaged stream, automatic threads`);
    assertEquals(messages[2], messages[0], `${dtype}: damaged stream, 3 threads`);
  }
  for (const threads of [-1, 1.5, 2000]) {
    assertThrowsTyped(() => compress(new Uint16Array(64), "bf16", { threads }), InvalidArgumentError);
    assertThrowsTyped(
      () => decompress(compress(new Uint16Array(64), "bf16"), undefined, { threads }),
      InvalidArgumentError,
    );
  }
});

Deno.test("compressAsync and decompressAsync: the same bytes off the calling thread, the same typed errors", async () => {
  const data = makeDataset("gaussian", "bf16", 200_001, RUN_SEED + 43);
  const sync = compress(data, "bf16", { checksum: true, log2Block: 12 });
  const pending = compressAsync(data, "bf16", { checksum: true, log2Block: 12 });
  assert(pending instanceof Promise, "compressAsync returns a promise");
  sameBytes(await pending, sync, "compressAsync writes compress's bytes");
  const into = new Uint8Array(maxCompressedSize(200_001, "bf16", { checksum: true }));
  const view = await compressAsync(data, "bf16", { checksum: true, log2Block: 12, into, threads: 1 });
  assert(view.buffer === into.buffer, "compressAsync into a caller buffer returns a view of it");
  sameBytes(view, sync, "compressAsync into a caller buffer");
  sameBytes(await decompressAsync(sync), data, "decompressAsync");
  sameBytes(await decompressAsync(sync, undefined, { threads: 2 }), data, "decompressAsync on 2 threads");
  // A damaged block: the worker's failure arrives as the same typed error with the same message.
  const bad = sync.slice();
  bad[Math.floor(bad.length / 2)] ^= 0x3c;
  let syncError: UzipError | undefined;
  try {
    decompress(bad);
  } catch (e) {
    syncError = e as UzipError;
  }
  assert(syncError instanceof UzipError, "the damaged stream fails to decode");
  try {
    await decompressAsync(bad);
    assert(false, "decompressAsync of a damaged stream must reject");
  } catch (e) {
    assertInstanceOf(e, syncError.constructor as new (...a: never[]) => UzipError);
    assertEquals((e as UzipError).nativeMessage, syncError.nativeMessage);
  }
  // The worker's BUFFER_TOO_SMALL (a destination under the stream's size) carries the library's message.
  try {
    await compressAsync(data, "bf16", { into: new Uint8Array(1000) });
    assert(false, "compressAsync into 1000 bytes must reject");
  } catch (e) {
    assertInstanceOf(e, BufferTooSmallError);
    assert((e as UzipError).nativeMessage.includes("too small"), (e as UzipError).nativeMessage);
  }
  await assertRejectsTyped(() => compressAsync(new Uint16Array(3), "fp32"), InvalidArgumentError);
  await assertRejectsTyped(() => decompressAsync(sync, undefined, { threads: -1 }), InvalidArgumentError);
  await assertRejectsTyped(() => decompressAsync(sync.subarray(0, 40)), TruncatedStreamError);
});

Deno.test("256 MiB of bf16 round-trips bit for bit with its checksum", () => {
  // A 16 MiB Gaussian period tiled 16 times, with the tile index folded into the lowest mantissa bit of
  // every 97th element so that no two tiles (and no two 64 Ki-element blocks) are identical.
  const period = makeDataset("gaussian", "bf16", 8 << 20, 31);
  const data = new Uint8Array(256 << 20);
  for (let t = 0; t < 16; t++) data.set(period, t * period.length);
  const words = new Uint16Array(data.buffer);
  for (let i = 0; i < words.length; i += 97) words[i] ^= (i >>> 23) & 1;
  const stream = compress(data, "bf16", { checksum: true });
  const info = inspect(stream);
  assertEquals(info.count, 128 << 20);
  assert(info.ratio < 0.7, `ratio ${info.ratio}`);
  const back = decompress(stream);
  assertEquals(back.length, data.length);
  let firstDiff = -1;
  for (let i = 0; i < data.length && firstDiff < 0; i += 1 << 20) {
    const a = data.subarray(i, i + (1 << 20)), b = back.subarray(i, i + (1 << 20));
    for (let j = 0; j < a.length; j++) {
      if (a[j] !== b[j]) {
        firstDiff = i + j;
        break;
      }
    }
  }
  assertEquals(firstDiff, -1, `first differing byte at ${firstDiff}`);
});

Deno.test("compress into a caller buffer returns a view of the same bytes; too small is BufferTooSmallError", () => {
  const data = makeDataset("gaussian", "bf16", 100_003, 5);
  const fresh = compress(data, "bf16", { checksum: true });
  const into = new Uint8Array(maxCompressedSize(100_003, "bf16", { checksum: true }));
  const view = compress(data, "bf16", { checksum: true, into });
  assertEquals(view.buffer, into.buffer);
  assertEquals(view, fresh);
  assertThrowsTyped(() => compress(data, "bf16", { into: new Uint8Array(64) }), BufferTooSmallError);
});
