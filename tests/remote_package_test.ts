// The package as a JSR user gets it: imported from a web server, with no folder of its own to build in.
// A local HTTP server serves the files `deno publish` would upload (deno.json's publish.include) and
// child Deno processes (no config, no lockfile, their own DENO_DIR and HOME) import it from there: the
// build fetches and checks the native sources, the library is looked up in the per-user cache, and a
// forged source is refused before anything is written. The full remote build (nvcc, ~4 min on 2 cores)
// runs when UZIP_TEST_REMOTE_BUILD=1 (CI sets it); without it that case prints SKIP.
import { assert, assertEquals } from "./_assert.ts";
import { buildCommand, cachedLibraryPath, libraryCacheDir, resolveLibraryPath } from "../ffi/path.ts";
import { PACKAGE_VERSION, type SourceFile, SOURCES, SOURCES_KEY } from "../ffi/sources.ts";
import { fetchSources, sha256Hex, SourceFetchError } from "../scripts/build_sources.ts";
import { listSources, sourcesKey } from "../scripts/gen_sources.ts";
import { libraryPath } from "../ffi/deno.ts";

const root = new URL("../", import.meta.url);
const deno = Deno.execPath();

Deno.test("ffi/sources.ts lists the build's files as they are on disk (else: deno task sources)", async () => {
  const onDisk = await listSources(root);
  assertEquals(SOURCES.map((f) => ({ ...f })), onDisk, "ffi/sources.ts is stale: run `deno task sources`");
  assertEquals(SOURCES_KEY, await sourcesKey(onDisk));
  const version = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).version;
  assertEquals(
    PACKAGE_VERSION,
    version,
    "ffi/sources.ts has another version than deno.json: deno task sources",
  );
  assert(SOURCES.some((f) => f.path === "scripts/build.sh") && SOURCES.some((f) => f.path.endsWith(".cu")));
});

Deno.test("library path: UZIP_LIB, then a local package's build, then the per-user cache", () => {
  const web = new URL("https://jsr.io/@uccl/zip/0.2.0/");
  const disk = new URL("file:///opt/my%20pkg/");
  const sub = `${PACKAGE_VERSION}-${SOURCES_KEY}/libuzip.so`;
  assertEquals(resolveLibraryPath({ UZIP_LIB: "/x/lib.so", HOME: "/h" }, web), "/x/lib.so");
  assertEquals(resolveLibraryPath({ UZIP_LIB: "/x/lib.so" }, disk), "/x/lib.so");
  assertEquals(resolveLibraryPath({ HOME: "/h" }, disk), "/opt/my pkg/build/libuzip.so");
  assertEquals(resolveLibraryPath({ HOME: "/h" }, web), `/h/.cache/uccl-zip/${sub}`);
  assertEquals(resolveLibraryPath({ HOME: "/h", XDG_CACHE_HOME: "/xdg/" }, web), `/xdg/uccl-zip/${sub}`);
  assertEquals(
    resolveLibraryPath({ HOME: "/h", XDG_CACHE_HOME: "/xdg", UZIP_CACHE_DIR: "/c//" }, web),
    `/c/${sub}`,
  );
  assertEquals(resolveLibraryPath({}, web), null);
  assertEquals(resolveLibraryPath({ UZIP_LIB: "" }, web), null, "an empty variable counts as unset");
  assertEquals(libraryCacheDir({ UZIP_CACHE_DIR: "/" }), "/");
  assertEquals(cachedLibraryPath("/c/"), `/c/${sub}`);
  // This module is on disk: the process's own path is the clone's build unless UZIP_LIB says otherwise.
  const env = Deno.env.get("UZIP_LIB");
  assertEquals(libraryPath(), env ? env : decodeURIComponent(new URL("build/libuzip.so", root).pathname));
});

Deno.test("build command named in errors: a clone's task, a JSR export, else the script's URL", () => {
  assertEquals(
    buildCommand(new URL("https://jsr.io/@uccl/zip/0.2.0/")),
    "deno run -A jsr:@uccl/zip@0.2.0/build",
  );
  assertEquals(
    buildCommand(new URL("http://127.0.0.1:8000/pkg/")),
    "deno run -A http://127.0.0.1:8000/pkg/scripts/build.ts",
  );
  assertEquals(buildCommand(new URL("file:///src/zip/")), "deno task build (in /src/zip/)");
});

// A fetch over an in-memory package; `serve` may alter what a path returns.
function fakeFetch(
  files: Map<string, Uint8Array<ArrayBuffer>>,
  serve: (path: string, b: Uint8Array<ArrayBuffer>) => Response | null,
) {
  return ((input: string | URL | Request) => {
    const path = new URL(String(input)).pathname.slice(1);
    const bytes = files.get(path);
    const altered = bytes ? serve(path, bytes) : null;
    return Promise.resolve(
      altered ?? (bytes ? new Response(bytes.slice()) : new Response("no such file", { status: 404 })),
    );
  }) as typeof fetch;
}

Deno.test("fetchSources: sizes and digests checked, HTTP and network failures typed", async () => {
  const enc = new TextEncoder();
  const a = enc.encode("int a;\n"), b = enc.encode("#pragma once\n");
  const list: SourceFile[] = [
    { path: "cuda/a.cc", bytes: a.length, sha256: await sha256Hex(a) },
    { path: "cuda/b.h", bytes: b.length, sha256: await sha256Hex(b) },
  ];
  const files = new Map([["cuda/a.cc", a], ["cuda/b.h", b]]);
  const base = new URL("https://example.test/");
  const got = await fetchSources(base, list, fakeFetch(files, () => null));
  assertEquals([...got.keys()], ["cuda/a.cc", "cuda/b.h"]);
  assertEquals(got.get("cuda/b.h"), b);

  const rejects = async (f: typeof fetch, files2: readonly SourceFile[], pattern: RegExp) => {
    try {
      await fetchSources(base, files2, f);
    } catch (e) {
      assert(e instanceof SourceFetchError, `not a SourceFetchError: ${e}`);
      assert(pattern.test(e.message), e.message);
      return;
    }
    throw new Error(`fetchSources accepted what ${pattern} should have refused`);
  };
  // One byte changed, same size: the digest.
  await rejects(
    fakeFetch(files, (p, x) => p === "cuda/b.h" ? new Response(x.map((v, i) => i === 3 ? v ^ 1 : v)) : null),
    list,
    /cuda\/b\.h: SHA-256 [0-9a-f]{64} where ffi\/sources\.ts lists/,
  );
  await rejects(
    fakeFetch(files, (p, x) => p === "cuda/a.cc" ? new Response(x.slice(0, 3)) : null),
    list,
    /cuda\/a\.cc: 3 bytes where ffi\/sources\.ts lists 7/,
  );
  await rejects(fakeFetch(new Map([["cuda/a.cc", a]]), () => null), list, /cuda\/b\.h: HTTP 404/);
  await rejects((() => Promise.reject(new TypeError("connection refused"))) as typeof fetch, list, /refused/);
  for (const path of ["../etc/passwd", "/abs", "cuda//x", "cuda/./x"]) {
    await rejects(
      fakeFetch(files, () => null),
      [{ path, bytes: 0, sha256: "" }],
      /not a plain relative path/,
    );
  }
});

// deno.json's publish.include, as prefixes ("dir/") and files: what JSR would serve.
const include: string[] = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).publish.include;
const published = (path: string) => include.some((p) => p.endsWith("/") ? path.startsWith(p) : path === p);

// Serves the published files of this clone at http://127.0.0.1:PORT/pkg/; `alter` may change a file.
function servePackage(
  alter: (path: string, bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer> = (_, b) => b,
) {
  const requests = new Map<string, number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname).replace(/^\/pkg\//, "");
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path.split("/").includes("..") || !published(path)) {
      return new Response("not published", { status: 404 });
    }
    try {
      return new Response(alter(path, await Deno.readFile(new URL(path, root))));
    } catch {
      return new Response("missing", { status: 404 });
    }
  });
  const url = `http://127.0.0.1:${server.addr.port}/pkg/`;
  return { url, requests, close: () => server.shutdown() };
}

// A child Deno with nothing of this process's environment but PATH: no UZIP_LIB, its own HOME and cache.
async function child(args: string[], home: string, extraEnv: Record<string, string> = {}) {
  const out = await new Deno.Command(deno, {
    args,
    cwd: home,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      DENO_DIR: `${home}/deno-dir`,
      ...extraEnv,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

const run = ["run", "-A", "--no-config", "--no-lock", "--quiet"];

// A script importing the served package: a bf16 round trip on the CPU, then the library path it used.
async function writeRoundTrip(home: string, pkg: string): Promise<string> {
  const script = `${home}/roundtrip.ts`;
  await Deno.writeTextFile(
    script,
    `import { compress, decompress, libraryPath } from "${pkg}mod.ts";
const a = new Uint16Array(200000);
for (let i = 0; i < a.length; i++) a[i] = 0x3c00 + ((Math.imul(i, 2654435761) >>> 26) << 4) + (i & 15);
const s = compress(a, "bf16");
const b = new Uint16Array(decompress(s).slice().buffer);
console.log(JSON.stringify({ path: libraryPath(), same: b.length === a.length && b.every((v, i) => v === a[i]), bytes: s.length }));
`,
  );
  return script;
}

Deno.test("served package: build --sources-only fetches and checks every listed file", async () => {
  const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
  const srv = servePackage();
  try {
    const into = `${home}/src`;
    const r = await child([...run, `${srv.url}scripts/build.ts`, "--sources-only", into], home);
    assertEquals(r.code, 0, r.text);
    for (const f of SOURCES) {
      const got = await Deno.readFile(`${into}/${f.path}`);
      assertEquals(got, await Deno.readFile(new URL(f.path, root)), f.path);
    }
    assert(SOURCES.every((f) => srv.requests.get(f.path) === 1), "every source fetched once");
  } finally {
    await srv.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("served package: a forged source is refused and nothing is written", async () => {
  const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
  // Same size, one byte changed, in a file the kernels include.
  const victim = "cuda/uzip_format.h";
  const srv = servePackage((p, b) => p === victim ? b.map((v, i) => i === 100 ? v ^ 0x20 : v) : b);
  try {
    const into = `${home}/src`;
    const r = await child([...run, `${srv.url}scripts/build.ts`, "--sources-only", into], home);
    assertEquals(r.code, 1, r.text);
    assert(r.text.includes(`${victim}: SHA-256`) && r.text.includes("nothing was built"), r.text);
    const written = [...Deno.readDirSync(home)].map((e) => e.name);
    assert(!written.includes("src"), `files were written: ${written}`);
  } finally {
    await srv.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("served package: the library comes from the per-user cache; missing, the error names the build", async () => {
  const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
  const srv = servePackage();
  try {
    const script = await writeRoundTrip(home, srv.url);
    // No build in the cache yet: a typed error naming the command that makes one.
    const miss = await child([...run, script], home);
    assert(miss.code !== 0, miss.text);
    assert(miss.text.includes("LibraryLoadError"), miss.text);
    assert(miss.text.includes(`deno run -A ${srv.url}scripts/build.ts`), miss.text);
    // This clone's build placed where a remote build would put it.
    const cache = `${home}/cache`;
    const target = cachedLibraryPath(cache);
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(new URL("build/libuzip.so", root), target);
    const ok = await child([...run, script], home, { UZIP_CACHE_DIR: cache });
    assertEquals(ok.code, 0, ok.text);
    const res = JSON.parse(ok.text.trim().split("\n").pop()!);
    assertEquals(res.path, target);
    assert(res.same && res.bytes > 0 && res.bytes < 400000, ok.text);
    // Without UZIP_CACHE_DIR the default is $HOME/.cache/uccl-zip.
    const dflt = await child([...run, script], home);
    assert(dflt.text.includes(cachedLibraryPath(`${home}/.cache/uccl-zip`)), dflt.text);
  } finally {
    await srv.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("served package: build --cpu-only fills the cache with the CPU codec alone, which the package then uses", async () => {
  const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
  const srv = servePackage();
  try {
    const cache = `${home}/cache`;
    const built = await child([...run, `${srv.url}scripts/build.ts`, "--cpu-only"], home, {
      UZIP_CACHE_DIR: cache,
    });
    assertEquals(built.code, 0, built.text);
    const target = cachedLibraryPath(cache);
    assert(built.text.includes(`built ${target}`) && built.text.includes("cpu-only"), built.text);
    const script = await writeRoundTrip(home, srv.url);
    await Deno.writeTextFile(
      script,
      (await Deno.readTextFile(script)).replace("libraryPath }", "libraryFeatures, libraryPath }") +
        "console.log(JSON.stringify(libraryFeatures()));\n",
    );
    const ok = await child([...run, script], home, { UZIP_CACHE_DIR: cache });
    assertEquals(ok.code, 0, ok.text);
    const lines = ok.text.trim().split("\n");
    const res = JSON.parse(lines[lines.length - 2]);
    assertEquals(res.path, target);
    assert(res.same, ok.text);
    assertEquals(JSON.parse(lines[lines.length - 1]), { cuda: false, nccl: false });
    // Asked again without --cpu-only where nvcc exists, the next run would replace it (tests/cpu_only_test.ts
    // checks that rule); with --cpu-only it stays.
    const again = await child([...run, `${srv.url}scripts/build.ts`, "--cpu-only"], home, {
      UZIP_CACHE_DIR: cache,
    });
    assert(again.code === 0 && again.text.includes("is up to date"), again.text);
  } finally {
    await srv.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("served package: a failed compile exits with its code and leaves no temporary folder or cache entry", async () => {
  const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
  const srv = servePackage();
  try {
    const cache = `${home}/cache`, tmp = `${home}/tmp`;
    await Deno.mkdir(tmp);
    // A compiler that fails every call.
    const r = await child([...run, `${srv.url}scripts/build.ts`, "--cpu-only"], home, {
      UZIP_CACHE_DIR: cache,
      TMPDIR: tmp,
      CXX: "false",
    });
    assert(r.code !== 0 && r.text.includes("scripts/build.sh failed with exit code"), r.text);
    assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), [], "the temporary build folder was removed");
    let cached: string[] = [];
    try {
      cached = [...Deno.readDirSync(cache)].map((e) => e.name);
    } catch { /* never made */ }
    assertEquals(cached, [], "nothing in the cache");
  } finally {
    await srv.close();
    await Deno.remove(home, { recursive: true });
  }
});

const fullBuild = Deno.env.get("UZIP_TEST_REMOTE_BUILD") === "1";
if (!fullBuild) console.log("SKIP (UZIP_TEST_REMOTE_BUILD is not 1): nvcc build of the served package");

Deno.test({
  name: "served package: deno run -A <pkg>/scripts/build.ts builds into the cache, then it is used",
  ignore: !fullBuild,
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "uzip-remote-" });
    const srv = servePackage();
    try {
      const cache = `${home}/cache`;
      const env = { UZIP_CACHE_DIR: cache, ...(Deno.env.get("NVCC") ? { NVCC: Deno.env.get("NVCC")! } : {}) };
      const built = await child([...run, `${srv.url}scripts/build.ts`], home, env);
      assertEquals(built.code, 0, built.text);
      const target = cachedLibraryPath(cache);
      assert(built.text.includes(`built ${target}`), built.text);
      assertEquals([...Deno.readDirSync(target.slice(0, target.lastIndexOf("/")))].map((e) => e.name), [
        "libuzip.so",
      ]);
      const ok = await child([...run, await writeRoundTrip(home, srv.url)], home, env);
      assertEquals(ok.code, 0, ok.text);
      const res = JSON.parse(ok.text.trim().split("\n").pop()!);
      assertEquals(res.path, target);
      assert(res.same, ok.text);
      // A second run finds the build and leaves it.
      const again = await child([...run, `${srv.url}scripts/build.ts`], home, env);
      assert(again.code === 0 && again.text.includes("is up to date"), again.text);
    } finally {
      await srv.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
