import { runService } from "./start.ts";
import type { Listener } from "./start-shutdown.ts";

/** Entry point on Bun: `bun run server`, and the compiled binary (`bun run build`). */
async function main(): Promise<void> {
  // Subcommands (such as `keys`) are dispatched here, before the server starts.
  if (process.argv[2] === "keys") {
    const { runKeysCli } = await import("./keys-cli.ts");
    process.exit(await runKeysCli(process.argv.slice(3), { env: process.env, print: (line) => console.log(line), printError: (line) => console.error(line) }));
  }
  await runService({
    name: `Bun ${Bun.version}`,
    env: process.env,
    stdoutIsTerminal: process.stdout.isTTY === true,
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    exit: (code) => process.exit(code),
    serve: (options) => {
      // Bun's own body limit is a backstop only: the app answers 413 itself, with the JSON error body.
      const server = Bun.serve({ port: options.port, hostname: options.host, fetch: options.fetch, maxRequestBodySize: options.maxBodyBytes * 4 });
      const listener: Listener = {
        port: server.port ?? options.port,
        stop: () => server.stop(false),
        abort: () => server.stop(true),
      };
      return listener;
    },
    onStopSignal: (handler) => {
      for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => handler(signal));
    },
  });
}

await main();
