/** @module Entry point on Bun: starts the server with `Bun.serve` or runs a subcommand. */
import { runService } from "./start/start.ts";
import type { Listener } from "./start/shutdown.ts";

/** Entry point on Bun: `bun run server`, and the compiled binary (`bun run build`). */
async function main(): Promise<void> {
  // Subcommands (`keys`, `doctor`, `mcp`) are dispatched here, before the server starts.
  if (process.argv[2] === "keys") {
    const { runKeysCli } = await import("./keys-cli.ts");
    process.exit(
      await runKeysCli(process.argv.slice(3), {
        env: process.env,
        print: (line) => console.log(line),
        printError: (line) => console.error(line),
      }),
    );
  }
  if (process.argv[2] === "doctor") {
    const { runDoctorCli } = await import("./doctor/doctor-cli.ts");
    const print = (line: string) => console.log(line);
    process.exit(await runDoctorCli(process.argv.slice(3), { env: process.env, print, printError: console.error }));
  }
  // MCP mode: JSON-RPC on stdio. console.log goes to stderr, so nothing (a library's print included) can break the
  // protocol.
  if (process.argv[2] === "mcp") {
    console.log = console.error;
    const { runMcp } = await import("./mcp/serve-stdio.ts");
    return await runMcp({
      name: `Bun ${Bun.version}`,
      env: process.env,
      stdin: process.stdin,
      stdout: process.stdout,
      printError: (line) => console.error(line),
      exit: (code) => process.exit(code),
      onStopSignal: (handler) => {
        for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => handler(signal));
      },
    });
  }
  if (process.argv[2] !== undefined) {
    console.error(`Unknown subcommand ${JSON.stringify(process.argv[2])}: use keys, doctor or mcp, or none to serve`);
    process.exit(2);
  }
  await runService({
    name: `Bun ${Bun.version}`,
    env: process.env,
    stdoutIsTerminal: process.stdout.isTTY === true,
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    exit: (code) => process.exit(code),
    serve: (options) => {
      // The app answers 413 itself, with the JSON error body, before reading a body declared too large and
      // once a chunked one grows past the limit. Bun's own limit would answer a bare 413 instead, so it is lifted.
      // Never development mode: its error page would show a stack trace and source lines to callers.
      // Bun's idle timeout (whole seconds) bounds a kept-alive connection, but also cuts a request whose
      // answer takes longer (a long video): while the app has the request, its own limits (BODY_TIMEOUT_MS,
      // REQUEST_TIMEOUT_MS) bound it instead, and the idle bound is set again for after the answer.
      // A fresh connection and a request's headers get Bun's own fixed 10 s (docs/decisions.md).
      const idleTimeout = Math.ceil((options.idleTimeoutMs ?? 10_000) / 1000);
      const server = Bun.serve({
        port: options.port,
        hostname: options.host,
        fetch: async (request, bun) => {
          bun.timeout(request, 0);
          let ended: Promise<void> | undefined;
          try {
            const response = await options.fetch(request);
            ended = options.streamEnded?.(response);
            return response;
          } finally {
            // A stream is bounded by its own limits (STREAM_TIMEOUT_MS) and keeps itself alive: the idle bound waits
            // for its end.
            if (ended) void ended.then(() => bun.timeout(request, idleTimeout), () => {});
            else bun.timeout(request, idleTimeout);
          }
        },
        idleTimeout,
        maxRequestBodySize: Number.MAX_SAFE_INTEGER,
        development: false,
      });
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
