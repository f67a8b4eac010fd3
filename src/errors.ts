/**
 * Typed errors for the uzip_status codes of `cuda/uzip.h`. Every native failure surfaces as a subclass
 * of {@linkcode UzipError} carrying the status, its name and the library's own message.
 *
 * @module
 */
import { cString, native } from "../ffi/deno.ts";

/** The uzip_status codes of `cuda/uzip.h`. */
export const Status = {
  OK: 0,
  INVALID_ARG: 1,
  CORRUPT: 2,
  TRUNCATED: 3,
  BUFFER_TOO_SMALL: 4,
  UNSUPPORTED: 5,
  CHECKSUM: 6,
  CUDA: 7,
  NO_DEVICE: 8,
  NCCL: 9,
  OUT_OF_MEMORY: 10,
  TIMEOUT: 11,
  INTERNAL: 12,
} as const;

/** A uzip_status name. */
export type StatusName = keyof typeof Status;

/** The name of a status code (`"UNKNOWN"` for a code this version does not know). */
export function statusName(status: number): StatusName | "UNKNOWN" {
  for (const [name, code] of Object.entries(Status)) if (code === status) return name as StatusName;
  return "UNKNOWN";
}

/** Base class of every error raised by @uccl/zip for a failed native call or a rejected argument. */
export class UzipError extends Error {
  /** The uzip_status code. */
  readonly status: number;
  /** The status name, e.g. `"CORRUPT"`. */
  readonly statusName: StatusName | "UNKNOWN";
  /** The library's (or the TS layer's) own message, without the status prefix. */
  readonly nativeMessage: string;
  /**
   * Creates an error for a status.
   * @param status the uzip_status code
   * @param message what went wrong
   */
  constructor(status: number, message: string) {
    const name = statusName(status);
    super(`${name}: ${message || "(no message)"}`);
    this.name = new.target.name;
    this.status = status;
    this.statusName = name;
    this.nativeMessage = message;
  }
}

/** A bad argument: unknown dtype, a length that is not a multiple of the element size, bad flags... */
export class InvalidArgumentError extends UzipError {
  /**
   * Creates the error.
   * @param message what was wrong
   */
  constructor(message: string) {
    super(Status.INVALID_ARG, message);
  }
}
/** The input is not a valid uzip stream (forged or damaged). */
export class CorruptStreamError extends UzipError {
  /**
   * Creates the error.
   * @param message the decoder's finding
   */
  constructor(message: string) {
    super(Status.CORRUPT, message);
  }
}
/** The stream is shorter than its header says. */
export class TruncatedStreamError extends UzipError {
  /**
   * Creates the error.
   * @param message the decoder's finding
   */
  constructor(message: string) {
    super(Status.TRUNCATED, message);
  }
}
/** The destination cannot hold the result. */
export class BufferTooSmallError extends UzipError {
  /**
   * Creates the error.
   * @param message sizes involved
   */
  constructor(message: string) {
    super(Status.BUFFER_TOO_SMALL, message);
  }
}
/** A valid stream of a version or feature this build does not know. */
export class UnsupportedError extends UzipError {
  /**
   * Creates the error.
   * @param message what is not supported
   */
  constructor(message: string) {
    super(Status.UNSUPPORTED, message);
  }
}
/** The decoded data does not match the checksum stored in the stream. */
export class ChecksumError extends UzipError {
  /**
   * Creates the error.
   * @param message stored and computed checksums
   */
  constructor(message: string) {
    super(Status.CHECKSUM, message);
  }
}
/** A CUDA runtime call failed. */
export class CudaError extends UzipError {
  /**
   * Creates the error.
   * @param message the CUDA error string
   */
  constructor(message: string) {
    super(Status.CUDA, message);
  }
}
/** No CUDA device or driver is present. */
export class NoDeviceError extends UzipError {
  /**
   * Creates the error.
   * @param message why no device is usable
   */
  constructor(message: string) {
    super(Status.NO_DEVICE, message);
  }
}
/** NCCL is missing, too old, or a NCCL call failed. */
export class NcclError extends UzipError {
  /**
   * Creates the error.
   * @param message the NCCL error
   */
  constructor(message: string) {
    super(Status.NCCL, message);
  }
}
/** A host or device allocation failed. */
export class OutOfMemoryError extends UzipError {
  /**
   * Creates the error.
   * @param message the allocation that failed
   */
  constructor(message: string) {
    super(Status.OUT_OF_MEMORY, message);
  }
}
/** A peer or a stream did not complete in time. */
export class TimeoutError extends UzipError {
  /**
   * Creates the error.
   * @param message what timed out
   */
  constructor(message: string) {
    super(Status.TIMEOUT, message);
  }
}
/** A bug in libuzip: please report it. */
export class InternalError extends UzipError {
  /**
   * Creates the error.
   * @param message the internal failure
   */
  constructor(message: string) {
    super(Status.INTERNAL, message);
  }
}

const classes: Record<number, new (message: string) => UzipError> = {
  [Status.INVALID_ARG]: InvalidArgumentError,
  [Status.CORRUPT]: CorruptStreamError,
  [Status.TRUNCATED]: TruncatedStreamError,
  [Status.BUFFER_TOO_SMALL]: BufferTooSmallError,
  [Status.UNSUPPORTED]: UnsupportedError,
  [Status.CHECKSUM]: ChecksumError,
  [Status.CUDA]: CudaError,
  [Status.NO_DEVICE]: NoDeviceError,
  [Status.NCCL]: NcclError,
  [Status.OUT_OF_MEMORY]: OutOfMemoryError,
  [Status.TIMEOUT]: TimeoutError,
  [Status.INTERNAL]: InternalError,
};

/** `value` when it is an integer in [min, max]; else an InvalidArgumentError naming `what`. */
export function checkInt(value: number, what: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${what} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

/** The typed error for a non-zero status and a message (an unknown status gives a plain UzipError). */
export function errorFor(status: number, message: string): UzipError {
  const Class = classes[status];
  return Class ? new Class(message) : new UzipError(status, message);
}

/**
 * Checks the status returned by a native call: returns on OK, else throws the typed error carrying this
 * thread's `uzipLastError()` message. Call it right after the native call, before any other one.
 */
export function unwrap(status: number): void {
  if (status === Status.OK) return;
  throw errorFor(status, cString(native().uzipLastError()));
}
