// Small assertion helpers over node:assert (JSR's @std/assert is not reachable from here).
import nodeAssert from "node:assert/strict";

/** Fails unless `cond` is truthy. */
export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

/** Deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}

/** Fails unless `value` is an instance of `Class`. */
export function assertInstanceOf<T>(
  value: unknown,
  Class: new (...a: never[]) => T,
  msg?: string,
): asserts value is T {
  nodeAssert.ok(value instanceof Class, msg ?? `expected ${Class.name}, got ${String(value)}`);
}

/** Runs `fn`, fails unless it throws, and returns what it threw. */
export function assertThrows(fn: () => unknown, msg?: string): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new nodeAssert.AssertionError({ message: msg ?? "expected the function to throw" });
}

/** Awaits `p`, fails unless it rejects, and returns the reason. */
export async function assertRejects(p: Promise<unknown>, msg?: string): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new nodeAssert.AssertionError({ message: msg ?? "expected the promise to reject" });
}
