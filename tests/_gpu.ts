// The one gate for GPU test suites. Without a usable CUDA device a GPU test is registered with
// `ignore: true` AND a visible "SKIP (no GPU): <name>" line is printed with the reason, so that GPU
// tests never pass silently on a machine that cannot run them.
import { cudaDeviceCount, libraryFeatures } from "../mod.ts";

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

let cpuOnly: boolean | null = null;

/** Whether this run's library is a CPU-only build (made where nvcc was missing: no CUDA, no NCCL). */
export function cpuOnlyBuild(): boolean {
  if (cpuOnly === null) {
    try {
      cpuOnly = !libraryFeatures().cuda;
    } catch {
      cpuOnly = false; // no library at all: let the tests fail and say so
    }
  }
  return cpuOnly;
}

/**
 * Registers a test of the CUDA build's functions (argument checks, the CPU simulations of the collectives:
 * no GPU needed). On a CPU-only build it is ignored and a SKIP line printed, like a GPU test without a GPU.
 */
export function cudaBuildTest(def: Deno.TestDefinition): void;
export function cudaBuildTest(name: string, fn: Deno.TestDefinition["fn"]): void;
export function cudaBuildTest(a: string | Deno.TestDefinition, fn?: Deno.TestDefinition["fn"]): void {
  const def: Deno.TestDefinition = typeof a === "string" ? { name: a, fn: fn! } : a;
  const skip = cpuOnlyBuild();
  if (skip) console.log(`SKIP (CPU-only build, no CUDA or NCCL): ${def.name}`);
  Deno.test({ ...def, ignore: def.ignore || skip });
}
