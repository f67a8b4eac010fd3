/**
 * Where libuzip.so is found: the path in the environment variable `UZIP_LIB` when it is set, else the
 * package's own `build/libuzip.so`. Pure functions, shared by the Deno and Node bindings.
 *
 * @module
 */

/** The environment variable that overrides the library path. */
export const LIBRARY_ENV = "UZIP_LIB";

/** The library path relative to the package root. */
export const LIBRARY_RELATIVE = "build/libuzip.so";

/**
 * Resolves the library path.
 *
 * @param envValue the value of `UZIP_LIB`, if any (an empty string counts as unset)
 * @param packageRoot the package root as a `file:` URL (ends with `/`)
 * @returns an absolute file-system path
 */
export function resolveLibraryPath(envValue: string | undefined, packageRoot: URL): string {
  if (envValue) return envValue;
  return decodeURIComponent(new URL(LIBRARY_RELATIVE, packageRoot).pathname);
}
