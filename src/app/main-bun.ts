/** @module Entry point on Bun: `bun run server`, and the compiled binary (`bun run build`). */
import { serveBun } from "./start/bun-serve.ts";
import { runCli } from "./start/cli.ts";

await runCli({
  name: `Bun ${Bun.version}`,
  args: process.argv.slice(2),
  env: process.env,
  stdio: () => ({ stdin: process.stdin, stdout: process.stdout }),
  stdoutIsTerminal: process.stdout.isTTY === true,
  exit: (code) => process.exit(code),
  serve: serveBun,
  onStopSignal: (handler) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => handler(signal));
  },
});
