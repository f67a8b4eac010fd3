// `deno task launch -n N [--timeout ms] script.ts [args...]`: runs N ranks of script.ts (one per GPU),
// prefixes their output with [rank r], and exits with the first failing rank's code (124 on timeout).
import { launch } from "../src/launch.ts";

function usage(): never {
  console.error("usage: deno task launch -n N [--timeout MS] script.ts [args...]");
  Deno.exit(2);
}

const argv = [...Deno.args];
let n = 0;
let timeoutMs: number | undefined;
while (argv.length > 0 && argv[0].startsWith("-")) {
  const flag = argv.shift()!;
  if (flag === "-n" || flag === "--n") n = Number(argv.shift());
  else if (flag.startsWith("-n=") || flag.startsWith("--n=")) n = Number(flag.split("=")[1]);
  else if (flag === "--timeout") timeoutMs = Number(argv.shift());
  else if (flag === "--") break;
  else usage();
}
const script = argv.shift();
if (!script || !Number.isInteger(n) || n < 1) usage();
const result = await launch({ n, script, args: argv, timeoutMs });
if (!result.ok) console.error(`launch: FAILED: ${result.message}`);
Deno.exit(result.code);
