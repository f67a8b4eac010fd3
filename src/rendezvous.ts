/**
 * A tiny key-value rendezvous on loopback TCP, served by the launcher: `SET key hex` stores a value,
 * `GET key` answers it as soon as it is set. Rank 0 publishes the NCCL unique id; others fetch it.
 * One line per request and per answer.
 *
 * @module
 */
import { TimeoutError } from "./errors.ts";

function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function fromHex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function request(address: string, line: string, timeoutMs: number): Promise<string> {
  const [host, port] = address.split(":");
  const conn = await Deno.connect({ hostname: host, port: Number(port) });
  const timer = setTimeout(() => conn.close(), timeoutMs);
  try {
    await conn.write(new TextEncoder().encode(line + "\n"));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(4096);
    for (;;) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      if (buf[n - 1] === 10) break;
    }
    const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))).trim();
    if (text === "") {
      throw new TimeoutError(
        `rendezvous ${address}: no answer to '${line.split(" ")[0]}' in ${timeoutMs} ms`,
      );
    }
    return text;
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* already closed by the timer */ }
  }
}

/** Publishes `value` under `key`. */
export async function rendezvousSet(address: string, key: string, value: Uint8Array): Promise<void> {
  await request(address, `SET ${key} ${toHex(value)}`, 10000);
}

/** Fetches the value of `key`, waiting up to `timeoutMs` for it to be set. */
export async function rendezvousGet(address: string, key: string, timeoutMs: number): Promise<Uint8Array> {
  const text = await request(address, `GET ${key}`, timeoutMs);
  return fromHex(text);
}

/** Serves the rendezvous on 127.0.0.1 (a free port); returns its address and a close function. */
export function serveRendezvous(): { address: string; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const values = new Map<string, string>();
  const waiters = new Map<string, ((v: string) => void)[]>();
  const handle = async (conn: Deno.Conn) => {
    try {
      const buf = new Uint8Array(4096);
      let text = "";
      while (!text.includes("\n")) {
        const n = await conn.read(buf);
        if (n === null) return;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
      const [op, key, value] = text.trim().split(" ");
      let answer: string;
      if (op === "SET" && key && value !== undefined) {
        values.set(key, value);
        for (const w of waiters.get(key) ?? []) w(value);
        waiters.delete(key);
        answer = "OK";
      } else if (op === "GET" && key) {
        answer = values.get(key) ??
          await new Promise<string>((resolve) => waiters.set(key, [...(waiters.get(key) ?? []), resolve]));
      } else {
        answer = "ERR";
      }
      await conn.write(new TextEncoder().encode(answer + "\n"));
    } catch {
      // a client that went away: nothing to answer
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    try {
      for await (const conn of listener) handle(conn);
    } catch { /* listener closed */ }
  })();
  const addr = listener.addr as Deno.NetAddr;
  return {
    address: `127.0.0.1:${addr.port}`,
    close: () => {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const ws of waiters.values()) for (const w of ws) w("");
      waiters.clear();
    },
  };
}
