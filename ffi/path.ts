/**
 * Where libuzip.so is found, in this order:
 *
 * 1. the path in the environment variable `UZIP_LIB`, when it is set;
 * 2. for a package on local disk (a clone, or a `file:` import), the package's own `build/libuzip.so`
 *    (`deno task build` makes it);
 * 3. for a package imported from JSR or another web server, whose folder cannot hold a build, a per-user
 *    cache: `$UZIP_CACHE_DIR`, else `$XDG_CACHE_HOME/uccl-zip`, else `$HOME/.cache/uccl-zip`, then a
 *    folder named by the package version and the digest of its native sources (`ffi/sources.ts`), so that
 *    every version, and every change to the sources, has its own build. `deno run -A jsr:@uccl/zip@<version>/build`
 *    fetches the sources, checks them and builds there.
 *
 * Pure functions, shared by the Deno and Node bindings and the build script.
 *
 * @module
 */
import { PACKAGE_VERSION, SOURCES_KEY } from "./sources.ts";

/** The environment variable that overrides the library path. */
export const LIBRARY_ENV = "UZIP_LIB";

/** The environment variable that overrides the cache folder of builds from fetched sources. */
export const CACHE_ENV = "UZIP_CACHE_DIR";

/** The library path relative to the package root. */
export const LIBRARY_RELATIVE = "build/libuzip.so";

/** The environment variables the library path depends on (unset or empty: absent). */
export const PATH_ENV_NAMES = [LIBRARY_ENV, CACHE_ENV, "XDG_CACHE_HOME", "HOME"] as const;

/** Values of {@linkcode PATH_ENV_NAMES}. */
export type PathEnv = Readonly<Partial<Record<(typeof PATH_ENV_NAMES)[number], string>>>;

/** The per-user folder that holds builds from fetched sources, or null when the environment names none. */
export function libraryCacheDir(env: PathEnv): string | null {
  if (env.UZIP_CACHE_DIR) return env.UZIP_CACHE_DIR.replace(/\/+$/, "") || "/";
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME.replace(/\/+$/, "")}/uccl-zip`;
  if (env.HOME) return `${env.HOME.replace(/\/+$/, "")}/.cache/uccl-zip`;
  return null;
}

/** The library built from this version's sources inside the cache folder `cacheDir`. */
export function cachedLibraryPath(cacheDir: string): string {
  return `${cacheDir.replace(/\/+$/, "")}/${PACKAGE_VERSION}-${SOURCES_KEY}/libuzip.so`;
}

/**
 * Resolves the library path (see the module's documentation for the order).
 *
 * @param env the environment's values of {@linkcode PATH_ENV_NAMES}
 * @param packageRoot the package root (ends with `/`): `file:` for a package on disk, else its web URL
 * @returns an absolute file-system path, or null for a package on the web when the environment names
 *   neither the library nor a cache folder
 */
export function resolveLibraryPath(env: PathEnv, packageRoot: URL): string | null {
  if (env.UZIP_LIB) return env.UZIP_LIB;
  if (packageRoot.protocol === "file:") {
    return decodeURIComponent(new URL(LIBRARY_RELATIVE, packageRoot).pathname);
  }
  const dir = libraryCacheDir(env);
  return dir === null ? null : cachedLibraryPath(dir);
}

/**
 * The command that builds the library for a package at `packageRoot`: `deno task build` in a clone, the
 * package's `build` export for a JSR package, else the build script's URL.
 */
export function buildCommand(packageRoot: URL): string {
  if (packageRoot.protocol === "file:") {
    return `deno task build (in ${decodeURIComponent(packageRoot.pathname)})`;
  }
  const jsr = packageRoot.host === "jsr.io" && /^\/(@[^/]+\/[^/]+)\/([^/]+)\/$/.exec(packageRoot.pathname);
  if (jsr) return `deno run -A jsr:${jsr[1]}@${jsr[2]}/build`;
  return `deno run -A ${new URL("scripts/build.ts", packageRoot).href}`;
}
