/** @module Entry point on Deno: `deno task server` (permissions in deno.json). */
import process from "node:process";
import { runCli } from "./start/cli.ts";
import { serveGuarded } from "./start/deno-guarded-serve.ts";

await runCli({
  name: `Deno ${Deno.version.deno}`,
  args: Deno.args,
  env: Deno.env.toObject(),
  stdio: () => ({ stdin: process.stdin, stdout: process.stdout }),
  stdoutIsTerminal: Deno.stdout.isTerminal(),
  exit: (code) => Deno.exit(code),
  // Deno.serve has no header or idle time limit: the connections go through a relay that sets them.
  serve: (options) =>
    serveGuarded({
      port: options.port,
      hostname: options.host,
      headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 10_000,
      handler: options.fetch,
    }),
  onStopSignal: (handler) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) Deno.addSignalListener(signal, () => handler(signal));
  },
});
