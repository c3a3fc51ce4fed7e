/** @module Entry point on Deno: starts the server behind the guarded serve or runs a subcommand. */
import process from "node:process";
import { serveGuarded } from "./start/deno-guarded-serve.ts";
import { runService } from "./start/start.ts";

/** Entry point on Deno: `deno task server` (permissions in deno.json). */
async function main(): Promise<void> {
  // Subcommands, as on Bun: `deno task server keys list`, `deno task server doctor`.
  if (Deno.args[0] === "keys") {
    const { runKeysCli } = await import("./keys-cli.ts");
    Deno.exit(
      await runKeysCli(Deno.args.slice(1), {
        env: Deno.env.toObject(),
        print: (line) => console.log(line),
        printError: (line) => console.error(line),
      }),
    );
  }
  if (Deno.args[0] === "doctor") {
    const { runDoctorCli } = await import("./doctor/doctor-cli.ts");
    const print = (line: string) => console.log(line);
    Deno.exit(await runDoctorCli(Deno.args.slice(1), { env: Deno.env.toObject(), print, printError: console.error }));
  }
  // MCP mode, as on Bun: JSON-RPC on stdio (the SDK's transport reads Node streams), console.log to stderr.
  if (Deno.args[0] === "mcp") {
    console.log = console.error;
    const { runMcp } = await import("./mcp/serve-stdio.ts");
    return await runMcp({
      name: `Deno ${Deno.version.deno}`,
      env: Deno.env.toObject(),
      stdin: process.stdin,
      stdout: process.stdout,
      printError: (line) => console.error(line),
      exit: (code) => Deno.exit(code),
      onStopSignal: (handler) => {
        for (const signal of ["SIGTERM", "SIGINT"] as const) Deno.addSignalListener(signal, () => handler(signal));
      },
    });
  }
  if (Deno.args[0] !== undefined) {
    console.error(`Unknown subcommand ${JSON.stringify(Deno.args[0])}: use keys, doctor or mcp, or none to serve`);
    Deno.exit(2);
  }
  await runService({
    name: `Deno ${Deno.version.deno}`,
    env: Deno.env.toObject(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
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
}

await main();
