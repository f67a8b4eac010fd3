/**
 * Host arrays handed to the library: every public entry that takes an `ArrayBufferView` turns it into the
 * bytes it covers here, so that a wrong kind of argument, shared memory where it is refused, or a detached
 * (transferred) buffer is an {@linkcode InvalidArgumentError} and not V8's TypeError from deeper down.
 *
 * @module
 */
import { InvalidArgumentError } from "./errors.ts";

/**
 * The bytes `view` covers, as a Uint8Array over the same memory.
 *
 * @param view the caller's array
 * @param what the argument's name, for the message
 * @param allowShared whether a SharedArrayBuffer-backed view is accepted
 */
export function hostBytes(view: ArrayBufferView, what: string, allowShared = false): Uint8Array<ArrayBuffer> {
  if (!ArrayBuffer.isView(view)) throw new InvalidArgumentError(`${what} must be an ArrayBufferView`);
  const buffer = view.buffer;
  if (!(buffer instanceof ArrayBuffer) && !allowShared) {
    throw new InvalidArgumentError(`${what} must be backed by an ArrayBuffer (not shared memory)`);
  }
  if (buffer instanceof ArrayBuffer && buffer.detached) {
    throw new InvalidArgumentError(`${what}'s ArrayBuffer is detached (transferred)`);
  }
  // Deno's FFI takes a shared view's memory as it takes any other: the type is only narrowed for it.
  return new Uint8Array(buffer, view.byteOffset, view.byteLength) as Uint8Array<ArrayBuffer>;
}
