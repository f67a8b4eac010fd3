// GPU resources and the GPU codec, checked against the CPU codec bit for bit. Every test here needs a
// CUDA device and is skipped visibly without one (tests/_gpu.ts); the last test checks the no-GPU path.
import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "./_assert.ts";
import { gpuTest, hasGpu } from "./_gpu.ts";
import {
  compress,
  type CompressOptions,
  cudaDeviceCount,
  CudaEvent,
  decompress,
  DeviceBuffer,
  deviceInfo,
  type DType,
  DTYPES,
  dtypeWidth,
  GpuCodec,
  InvalidArgumentError,
  maxCompressedSize,
  NoDeviceError,
  Stream,
  UnsupportedError,
  UzipError,
} from "../mod.ts";
import { missingSymbols } from "../ffi/deno.ts";
import { makeDataset, specialPatterns } from "../bench/data/synthetic.ts";
import { RUN_SEED } from "./_seed.ts";

function sameBytes(a: Uint8Array, b: Uint8Array, what: string): void {
  assertEquals(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) throw new Error(`${what}: byte ${i} differs (${a[i]} != ${b[i]})`);
  }
}

gpuTest("deviceInfo describes device 0", () => {
  const info = deviceInfo(0);
  assert(info.name.length > 0 && info.smCount > 0 && info.totalMem > 0, JSON.stringify(info));
  assert(info.computeCapability[0] >= 7);
});

gpuTest("DeviceBuffer: upload, download, fill, offsets, free twice, dispose", () => {
  const data = makeDataset("random", "bytes", 1 << 20, 1);
  const buf = DeviceBuffer.alloc(0, data.length);
  buf.upload(data);
  sameBytes(buf.download(), data, "round trip");
  const part = new Uint8Array(100);
  buf.download(part, undefined, 1000);
  sameBytes(part, data.subarray(1000, 1100), "ranged download");
  buf.upload(new Uint8Array(16).fill(7), undefined, 32);
  assertEquals(Array.from(buf.download(new Uint8Array(20), undefined, 30)), [
    data[30],
    data[31],
    ...new Array(16).fill(7),
    data[48],
    data[49],
  ]);
  const stream = Stream.create(0);
  buf.fill(0xab, stream);
  stream.synchronize();
  assert(buf.download().every((b) => b === 0xab), "fill");
  assertInstanceOf(
    assertThrows(() => buf.download(new Uint8Array(10), undefined, data.length - 5)),
    InvalidArgumentError,
  );
  buf.free();
  buf.free();
  assert(buf.freed);
  assertInstanceOf(assertThrows(() => buf.ptr), InvalidArgumentError);
  {
    using scoped = DeviceBuffer.alloc(0, 64);
    scoped.fill(1);
  }
  stream.destroy();
  stream.destroy();
});

gpuTest("Stream and CudaEvent: record, synchronize, synchronizeAsync, elapsedMs, waitEvent", async () => {
  using stream = Stream.create(0);
  using other = Stream.create(0);
  using start = CudaEvent.create(0);
  using end = CudaEvent.create(0);
  using buf = DeviceBuffer.alloc(0, 64 << 20);
  start.record(stream);
  for (let i = 0; i < 8; i++) buf.fill(i, stream);
  end.record(stream);
  await end.synchronizeAsync();
  end.synchronize();
  const ms = CudaEvent.elapsedMs(start, end);
  assert(ms >= 0 && ms < 10_000, `elapsed ${ms} ms`);
  other.waitEvent(end);
  buf.fill(9, other);
  await other.synchronizeAsync();
  assertEquals(buf.download(new Uint8Array(4)), new Uint8Array([9, 9, 9, 9]));
  // destroy() while a synchronizeAsync is in flight is deferred until it settles.
  const s2 = Stream.create(0);
  const pending = s2.synchronizeAsync();
  s2.destroy();
  await pending;
  assertInstanceOf(assertThrows(() => s2.handle), InvalidArgumentError);
});

function gpuRoundTrip(
  codec: GpuCodec,
  stream: Stream,
  data: Uint8Array,
  dtype: DType,
  opts: CompressOptions,
  what: string,
) {
  const count = data.length / dtypeWidth(dtype);
  const cpu = compress(data, dtype, opts);
  using src = DeviceBuffer.alloc(0, Math.max(1, data.length));
  using dst = DeviceBuffer.alloc(0, maxCompressedSize(count, dtype, opts));
  using back = DeviceBuffer.alloc(0, Math.max(1, data.length));
  src.upload(data, stream);
  codec.compress(src, count, dtype, dst, stream, opts);
  stream.synchronize();
  const size = codec.compressedSize();
  assertEquals(size, cpu.length, `${what}: GPU size equals CPU size`);
  sameBytes(dst.download(new Uint8Array(size), stream), cpu, `${what}: GPU stream equals CPU stream`);
  // No dtype, the stream's own, and another one: the dtype only picks a kernel (fp32 has its own). Lane
  // streams decode in their own kernels (and the default one refuses them); lean sections in theirs and,
  // out of line, in the default ones.
  if (opts.lanes) {
    codec.decompress(dst, size, back, stream);
    stream.synchronize();
    const e = assertThrows(() => codec.lastStatus(), `${what}: the default kernel refuses them`);
    assertInstanceOf(e, UnsupportedError);
  }
  if (opts.lean) {
    for (const hint of [undefined, dtype, dtype === "fp32" ? "bf16" : "fp32"] as const) {
      back.fill(0x5a, stream);
      codec.decompress(dst, size, back, stream, { dtype: hint });
      stream.synchronize();
      codec.lastStatus();
      sameBytes(
        back.download(new Uint8Array(data.length), stream),
        data,
        `${what}: the default kernels decode a lean stream (dtype given: ${hint ?? "none"})`,
      );
    }
  }
  // lean: "maybe" (uzipGpuDecompressEither) decodes default and lean streams alike and refuses lane streams.
  back.fill(0x5a, stream);
  codec.decompress(dst, size, back, stream, { lean: "maybe" });
  stream.synchronize();
  if (opts.lanes || opts.pairs) {
    assertInstanceOf(
      assertThrows(() => codec.lastStatus()),
      UnsupportedError,
      `${what}: lean "maybe" refuses them`,
    );
  } else {
    codec.lastStatus();
    sameBytes(
      back.download(new Uint8Array(data.length), stream),
      data,
      `${what}: GPU decode (lean: "maybe")`,
    );
  }
  for (const hint of [undefined, dtype, dtype === "fp32" ? "bf16" : "fp32"] as const) {
    back.fill(0x5a, stream);
    codec.decompress(dst, size, back, stream, { dtype: hint, lanes: opts.lanes, lean: opts.lean });
    stream.synchronize();
    codec.lastStatus();
    sameBytes(
      back.download(new Uint8Array(data.length), stream),
      data,
      `${what}: GPU decode (dtype given: ${hint ?? "none"})`,
    );
  }
}

gpuTest("GpuCodec: every dtype, data set and option matches the CPU codec bit for bit", () => {
  using codec = GpuCodec.create(0);
  using stream = Stream.create(0);
  for (const dtype of DTYPES) {
    for (const count of [1, 16385, 300_000]) {
      for (const name of ["gaussian", "random", "sparse", "constant"] as const) {
        for (
          const opts of [{}, { checksum: true }, { split: true, log2Block: 12 }, {
            lanes: true,
            checksum: true,
          }]
        ) {
          gpuRoundTrip(
            codec,
            stream,
            makeDataset(name, dtype, count, RUN_SEED + count),
            dtype,
            opts,
            `${dtype}/${name}/${count}`,
          );
        }
      }
    }
    gpuRoundTrip(codec, stream, specialPatterns(dtype), dtype, { checksum: true }, `${dtype} specials`);
  }
});

gpuTest(
  "GpuCodec: pair coding writes the CPU codec's bytes; the pair decoder decodes it, the others refuse it",
  () => {
    using codec = GpuCodec.create(0);
    using stream = Stream.create(0);
    for (const dtype of ["bf16", "fp32"] as const) {
      for (const count of [1, 16385, 300_000]) {
        for (const name of ["gaussian", "random", "sparse", "constant"] as const) {
          for (
            const opts of [{ pairs: true, split: true }, {
              pairs: true,
              split: true,
              checksum: true,
              log2Block: 15,
            }]
          ) {
            const data = makeDataset(name, dtype, count, RUN_SEED + 31 + count);
            const what = `pairs ${dtype}/${name}/${count}/${JSON.stringify(opts)}`;
            const cpu = compress(data, dtype, opts);
            using src = DeviceBuffer.alloc(0, data.length);
            using dst = DeviceBuffer.alloc(0, maxCompressedSize(count, dtype, opts));
            using back = DeviceBuffer.alloc(0, data.length);
            src.upload(data, stream);
            codec.compress(src, count, dtype, dst, stream, opts);
            stream.synchronize();
            const size = codec.compressedSize();
            const gpu = dst.download(new Uint8Array(size), stream);
            sameBytes(gpu, cpu, `${what}: GPU stream equals CPU stream`);
            sameBytes(decompress(gpu), data, `${what}: the CPU decodes the GPU stream`);
            codec.decompress(dst, size, back, stream, { dtype });
            stream.synchronize();
            assertInstanceOf(assertThrows(() => codec.lastStatus(), what), UnsupportedError);
            back.fill(0, stream);
            codec.decompress(dst, size, back, stream, { pairs: true });
            stream.synchronize();
            assertEquals(codec.lastStatus(), 0, what);
            sameBytes(
              back.download(new Uint8Array(data.length), stream),
              data,
              `${what}: the GPU decodes it`,
            );
          }
        }
      }
    }
    // A byte-coded stream given to the pair decoder: a typed error.
    const plain = compress(makeDataset("gaussian", "bf16", 4096, RUN_SEED), "bf16", { split: true });
    using plainDev = DeviceBuffer.alloc(0, plain.length);
    using plainOut = DeviceBuffer.alloc(0, 8192);
    plainDev.upload(plain, stream);
    codec.decompress(plainDev, plain.length, plainOut, stream, { pairs: true });
    stream.synchronize();
    assertInstanceOf(assertThrows(() => codec.lastStatus()), InvalidArgumentError);
    // The GPU encoder takes the split layout only: the default layout is refused with a typed error.
    using src = DeviceBuffer.alloc(0, 1024);
    using dst = DeviceBuffer.alloc(0, maxCompressedSize(512, "bf16", { pairs: true }));
    assertInstanceOf(
      assertThrows(() => codec.compress(src, 512, "bf16", dst, stream, { pairs: true })),
      UnsupportedError,
    );
  },
);

gpuTest(
  "GpuCodec: lean sections write the CPU codec's bytes; their kernel decodes them, and so do the default ones",
  () => {
    using codec = GpuCodec.create(0);
    using stream = Stream.create(0);
    for (const dtype of ["bf16", "fp16", "fp32", "fp8e4m3"] as const) {
      for (const count of [1, 64, 4096, 70_001]) {
        for (const name of ["gaussian", "random", "zeros"] as const) {
          for (const opts of [{ lean: true }, { lean: true, split: true, log2Block: 12 }]) {
            const data = makeDataset(name, dtype, count, RUN_SEED + 37 + count);
            gpuRoundTrip(
              codec,
              stream,
              data,
              dtype,
              opts,
              `lean ${dtype}/${name}/${count}/${JSON.stringify(opts)}`,
            );
          }
        }
      }
    }
  },
);

gpuTest("GpuCodec: a damaged stream reports a typed error, writes nothing outside dst", () => {
  using codec = GpuCodec.create(0, { maxSms: 8 });
  using stream = Stream.create(0);
  const data = makeDataset("gaussian", "bf16", 100_000, 5);
  const cpu = compress(data, "bf16", { checksum: true });
  const bad = cpu.slice();
  bad[9] ^= 0xff; // count field: the header check fails
  using src = DeviceBuffer.alloc(0, bad.length);
  using dst = DeviceBuffer.alloc(0, data.length + 256);
  src.upload(bad);
  dst.fill(0x11, stream);
  codec.decompress(src, bad.length, dst, stream);
  stream.synchronize();
  const e = assertThrows(() => codec.lastStatus());
  assertInstanceOf(e, UzipError);
  const tail = dst.download(new Uint8Array(256), stream, data.length);
  assert(tail.every((b) => b === 0x11), "nothing written past the decoded size");
});

Deno.test({
  name: "without a GPU: cudaDeviceCount() is 0 and allocation throws NoDeviceError",
  ignore: hasGpu(),
  fn: async () => {
    const lacking = missingSymbols().filter((s) => s.startsWith("uzipCuda") || s.startsWith("uzipStream"));
    if (lacking.length > 0) {
      console.log(`SKIP (CUDA API not in this libuzip build): lacks ${lacking.join(", ")}`);
      return;
    }
    assertEquals(cudaDeviceCount(), 0);
    assertInstanceOf(assertThrows(() => DeviceBuffer.alloc(0, 16)), NoDeviceError);
    assertInstanceOf(assertThrows(() => Stream.create(0)), NoDeviceError);
    assertInstanceOf(await assertRejects(Stream.legacy(0).synchronizeAsync()), NoDeviceError);
    if (missingSymbols().includes("uzipGpuCodecCreate")) {
      console.log("SKIP (GPU codec not in this libuzip build): GpuCodec.create without a device");
    } else {
      assertInstanceOf(assertThrows(() => GpuCodec.create(0)), NoDeviceError);
    }
  },
});
