/**
 * The native sources of a package that is not on local disk (imported from JSR or another web server):
 * every file that `scripts/build.sh` compiles, fetched next to this module and checked against the sizes
 * and SHA-256 digests of `ffi/sources.ts` before any of it is written or compiled. `ffi/sources.ts` is
 * itself a module of the package, so Deno's lockfile vouches for it and it vouches for the rest.
 *
 * @module
 */
import { type SourceFile, SOURCES } from "../ffi/sources.ts";

/** A source file could not be fetched, or its bytes are not the ones `ffi/sources.ts` lists. */
export class SourceFetchError extends Error {
  /** The URL that was fetched. */
  readonly url: string;
  /**
   * Creates the error.
   * @param message what went wrong
   * @param url the URL that was fetched
   */
  constructor(message: string, url: string) {
    super(message);
    this.name = "SourceFetchError";
    this.url = url;
  }
}

/** The lowercase hex SHA-256 digest of `bytes`. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A listed path is relative, with no "." or ".." segment: it can only name a file under the package root
// (and under the directory it is written to).
function checkRelative(path: string): void {
  const parts = path.split("/");
  if (path.startsWith("/") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new SourceFetchError(
      `refusing source path ${JSON.stringify(path)}: not a plain relative path`,
      path,
    );
  }
}

/**
 * Fetches every file of `files` relative to `root` and checks its size and digest.
 *
 * @param root the package root (ends with `/`): `https:`, `http:` or `file:`
 * @param files the list to fetch (default: the package's own, `SOURCES`)
 * @param fetchFn the fetch to use (tests pass their own)
 * @returns each path's verified bytes, in list order
 * @throws SourceFetchError on an HTTP error, a network failure, or bytes that differ from the list
 */
export async function fetchSources(
  root: URL,
  files: readonly SourceFile[] = SOURCES,
  fetchFn: typeof fetch = fetch,
): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  for (const f of files) checkRelative(f.path);
  const out = new Map<string, Uint8Array<ArrayBuffer>>();
  let next = 0;
  // A few requests in flight: the list is ~70 small files.
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      const url = new URL(f.path, root).href;
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        const res = await fetchFn(url);
        if (!res.ok) {
          await res.body?.cancel();
          throw new SourceFetchError(`GET ${url}: HTTP ${res.status} ${res.statusText}`.trim(), url);
        }
        bytes = new Uint8Array(await res.arrayBuffer());
      } catch (e) {
        if (e instanceof SourceFetchError) throw e;
        throw new SourceFetchError(`GET ${url}: ${e instanceof Error ? e.message : String(e)}`, url);
      }
      if (bytes.length !== f.bytes) {
        throw new SourceFetchError(
          `${url}: ${bytes.length} bytes where ffi/sources.ts lists ${f.bytes}`,
          url,
        );
      }
      const digest = await sha256Hex(bytes);
      if (digest !== f.sha256) {
        throw new SourceFetchError(`${url}: SHA-256 ${digest} where ffi/sources.ts lists ${f.sha256}`, url);
      }
      out.set(f.path, bytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, files.length) }, worker));
  return new Map(files.map((f) => [f.path, out.get(f.path)!]));
}

/** Writes fetched sources under `dir` (a `file:` URL ending with `/`), creating folders as needed. */
export async function writeSources(dir: URL, sources: ReadonlyMap<string, Uint8Array>): Promise<void> {
  for (const [path, bytes] of sources) {
    checkRelative(path);
    const url = new URL(path, dir);
    await Deno.mkdir(new URL("./", url), { recursive: true });
    await Deno.writeFile(url, bytes);
  }
}
