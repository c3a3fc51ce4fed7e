import { runService } from "./start.ts";
import type { Listener } from "./start-shutdown.ts";

/** Entry point on Deno: `deno task server` (permissions in deno.json). */
async function main(): Promise<void> {
  // Subcommands, as on Bun: `deno task server keys list`.
  if (Deno.args[0] === "keys") {
    const { runKeysCli } = await import("./keys-cli.ts");
    Deno.exit(await runKeysCli(Deno.args.slice(1), { env: Deno.env.toObject(), print: (line) => console.log(line), printError: (line) => console.error(line) }));
  }
  await runService({
    name: `Deno ${Deno.version.deno}`,
    env: Deno.env.toObject(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    exit: (code) => Deno.exit(code),
    serve: (options) => {
      // onListen is silenced: the banner, printed by start-up, is the one "listening" line.
      const server = Deno.serve({ port: options.port, hostname: options.host, onListen: () => {} }, options.fetch);
      const listener: Listener = {
        port: server.addr.port,
        stop: () => server.shutdown(),
        // Deno has no way to cut connections short; the process exit that follows does it.
        abort: async () => {},
      };
      return listener;
    },
    onStopSignal: (handler) => {
      for (const signal of ["SIGTERM", "SIGINT"] as const) Deno.addSignalListener(signal, () => handler(signal));
    },
  });
}

await main();
