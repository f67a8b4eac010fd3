/**
 * Element types the codec knows, with their wire ids (`enum uzip_dtype` in `cuda/uzip_format.h`).
 *
 * @module
 */
import { InvalidArgumentError } from "./errors.ts";

/** An element type: how the codec splits each element into an exponent symbol and a remainder. */
export type DType = "bytes" | "bf16" | "fp16" | "fp32" | "fp8e4m3" | "fp8e5m2";

/** Every dtype, in wire-id order (index = id). */
export const DTYPES: readonly DType[] = ["bytes", "bf16", "fp16", "fp32", "fp8e4m3", "fp8e5m2"];

const WIDTHS: Record<DType, number> = { bytes: 1, bf16: 2, fp16: 2, fp32: 4, fp8e4m3: 1, fp8e5m2: 1 };

/** Whether a value is a known dtype name. */
export function isDType(value: unknown): value is DType {
  return typeof value === "string" && (DTYPES as readonly string[]).includes(value);
}

/** The wire id of a dtype (0..5). Throws InvalidArgumentError for an unknown name. */
export function dtypeId(dtype: DType): number {
  const id = DTYPES.indexOf(dtype);
  if (id < 0) throw new InvalidArgumentError(`unknown dtype ${JSON.stringify(dtype)}`);
  return id;
}

/** The dtype of a wire id. Throws InvalidArgumentError for an unknown id. */
export function dtypeOf(id: number): DType {
  const d = DTYPES[id];
  if (d === undefined) throw new InvalidArgumentError(`unknown dtype id ${id}`);
  return d;
}

/** Bytes per element of a dtype. Throws InvalidArgumentError for an unknown name. */
export function dtypeWidth(dtype: DType): number {
  if (!isDType(dtype)) throw new InvalidArgumentError(`unknown dtype ${JSON.stringify(dtype)}`);
  return WIDTHS[dtype];
}
