// The one gate for GPU test suites. Without a usable CUDA device a GPU test is registered with
// `ignore: true` AND a visible "SKIP (no GPU): <name>" line is printed with the reason, so that GPU
// tests never pass silently on a machine that cannot run them.
import { cudaDeviceCount } from "../mod.ts";

let probe: { count: number; reason: string } | null = null;

function probeGpu(): { count: number; reason: string } {
  if (probe !== null) return probe;
  try {
    const count = cudaDeviceCount();
    probe = { count, reason: count > 0 ? "" : "cudaDeviceCount() = 0" };
  } catch (e) {
    probe = { count: 0, reason: e instanceof Error ? e.message : String(e) };
  }
  return probe;
}

/** Whether at least one CUDA device is usable. */
export function hasGpu(): boolean {
  return probeGpu().count > 0;
}

/** Registers a test that needs a GPU; without one it is ignored and a SKIP line is printed. */
export function gpuTest(name: string, fn: () => void | Promise<void>): void {
  const { count, reason } = probeGpu();
  if (count === 0) console.log(`SKIP (no GPU): ${name} [${reason}]`);
  Deno.test({ name, ignore: count === 0, fn });
}
