/**
 * A multi-process launcher: one Deno process per GPU (or per rank without GPUs), each told its rank,
 * the world size, its CUDA device and a loopback rendezvous address (`UZIP_RANK`, `UZIP_WORLD_SIZE`,
 * `UZIP_DEVICE`, `UZIP_RENDEZVOUS`). Output lines are forwarded with a `[rank r]` prefix. When any rank
 * fails, the others are killed and the run fails with that rank's exit code; when the run outlasts its
 * timeout, every rank still running is killed and the run fails naming them.
 *
 * ```ts
 * const result = await launch({ n: 2, script: "bench/p2p.ts", args: ["--sizes", "64MiB"] });
 * if (!result.ok) console.error(result.message);
 * ```
 *
 * @module
 */
import { serveRendezvous } from "./rendezvous.ts";

/** Options of {@linkcode launch}. */
export interface LaunchOptions {
  /** Number of ranks (processes). */
  n: number;
  /** The script each rank runs (a path or URL Deno can run). */
  script: string;
  /** Arguments passed to every rank's script. */
  args?: string[];
  /** Kill everything and fail after this many ms (default 600000). */
  timeoutMs?: number;
  /** Extra environment for every rank. */
  env?: Record<string, string>;
  /** Deno flags before the script (default ["-A"]). */
  denoFlags?: string[];
  /** Where each prefixed output line goes (default: this process's stdout/stderr). */
  onLine?: (rank: number, stream: "stdout" | "stderr", line: string) => void;
  /** After a rank fails, how long the others get to exit before SIGKILL (default 2000 ms). */
  graceMs?: number;
}

/** How one rank ended. */
export interface RankResult {
  /** The rank. */
  rank: number;
  /** Exit code (null when killed by a signal). */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: string | null;
  /** Killed by the launcher (after another rank failed or on timeout). */
  killedByLauncher: boolean;
}

/** The outcome of a run. */
export interface LaunchResult {
  /** Every rank exited 0 in time. */
  ok: boolean;
  /** The exit code the launcher reports: 0, the first failing rank's code, or 124 on timeout. */
  code: number;
  /** One entry per rank. */
  ranks: RankResult[];
  /** Empty when ok; else which rank failed how, or which ranks hung. */
  message: string;
  /** The run was stopped at its timeout. */
  timedOut: boolean;
}

async function forwardLines(
  stream: ReadableStream<Uint8Array>,
  emit: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    let i: number;
    while ((i = pending.indexOf("\n")) >= 0) {
      emit(pending.slice(0, i));
      pending = pending.slice(i + 1);
    }
  }
  pending += decoder.decode();
  if (pending.length > 0) emit(pending);
}

/** Runs `n` ranks of `script` and resolves when all have ended (or the run failed). */
export async function launch(opts: LaunchOptions): Promise<LaunchResult> {
  if (!Number.isInteger(opts.n) || opts.n < 1) {
    throw new RangeError(`n must be a positive integer, got ${opts.n}`);
  }
  const timeoutMs = opts.timeoutMs ?? 600000;
  const graceMs = opts.graceMs ?? 2000;
  const encoder = new TextEncoder();
  const onLine = opts.onLine ?? ((rank, stream, line) => {
    const out = stream === "stdout" ? Deno.stdout : Deno.stderr;
    out.writeSync(encoder.encode(`[rank ${rank}] ${line}\n`));
  });
  const rdv = serveRendezvous();
  const children: Deno.ChildProcess[] = [];
  const results: (RankResult | null)[] = new Array(opts.n).fill(null);
  const killed = new Set<number>();
  let firstFailure: RankResult | null = null;
  let timedOut = false;

  const killAll = (signal: Deno.Signal) => {
    children.forEach((child, r) => {
      if (results[r] !== null) return;
      killed.add(r);
      try {
        child.kill(signal);
      } catch { /* already gone */ }
    });
  };
  let escalate: ReturnType<typeof setTimeout> | undefined;
  const failFast = () => {
    killAll("SIGTERM");
    escalate ??= setTimeout(() => killAll("SIGKILL"), graceMs);
  };

  for (let rank = 0; rank < opts.n; rank++) {
    const cmd = new Deno.Command(Deno.execPath(), {
      args: ["run", ...(opts.denoFlags ?? ["-A"]), opts.script, ...(opts.args ?? [])],
      env: {
        ...opts.env,
        UZIP_RANK: String(rank),
        UZIP_WORLD_SIZE: String(opts.n),
        UZIP_DEVICE: String(rank),
        UZIP_RENDEZVOUS: rdv.address,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
    children.push(cmd.spawn());
  }
  const timer = setTimeout(() => {
    timedOut = true;
    killAll("SIGKILL");
  }, timeoutMs);

  await Promise.all(children.map(async (child, rank) => {
    const pipes = Promise.all([
      forwardLines(child.stdout, (l) => onLine(rank, "stdout", l)),
      forwardLines(child.stderr, (l) => onLine(rank, "stderr", l)),
    ]);
    const status = await child.status;
    const result: RankResult = {
      rank,
      code: status.signal === null ? status.code : null,
      signal: status.signal,
      killedByLauncher: killed.has(rank),
    };
    results[rank] = result;
    if (!status.success && !result.killedByLauncher && firstFailure === null) {
      firstFailure = result;
      failFast();
    }
    await pipes.catch(() => {});
  }));
  clearTimeout(timer);
  if (escalate !== undefined) clearTimeout(escalate);
  rdv.close();

  const ranks = results as RankResult[];
  const failure = firstFailure as RankResult | null;
  if (timedOut) {
    const hung = ranks.filter((r) => r.killedByLauncher).map((r) => r.rank);
    return {
      ok: false,
      code: 124,
      ranks,
      timedOut,
      message: `timeout after ${timeoutMs} ms: rank(s) ${
        hung.join(", ")
      } still running (hung?) and were killed`,
    };
  }
  if (failure !== null) {
    const how = failure.signal ? `was killed by ${failure.signal}` : `exited with code ${failure.code}`;
    const others = ranks.filter((r) => r.killedByLauncher).map((r) => r.rank);
    return {
      ok: false,
      code: failure.code && failure.code > 0 ? failure.code : 1,
      ranks,
      timedOut,
      message: `rank ${failure.rank} ${how}` +
        (others.length ? `; killed the other rank(s) ${others.join(", ")}` : ""),
    };
  }
  return { ok: true, code: 0, ranks, timedOut, message: "" };
}
