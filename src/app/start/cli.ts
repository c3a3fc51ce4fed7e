/** @module The command line on any runtime: a subcommand (`keys`, `doctor`, `mcp`), or with none the service. */
import type { Readable, Writable } from "node:stream";
import { runService, type Runtime } from "./start.ts";

/** What an entry point hands the command line: the parts that differ between Bun and Deno. */
export interface CliRuntime extends Omit<Runtime, "print" | "printError"> {
  /** The arguments after the program's own: a subcommand and its arguments, or none to serve. */
  args: readonly string[];
  /** Stdio as Node streams (the MCP SDK's transport reads them), asked for only in MCP mode. */
  stdio(): { stdin: Readable; stdout: Writable };
}

/**
 * Runs what the arguments ask for: `keys` and `doctor` exit with their command's code, `mcp` serves
 * JSON-RPC on stdio, no argument starts the service, and anything else exits with 2. A subcommand's
 * code is loaded only when it runs, so the service starts without it.
 *
 * @param runtime the runtime's arguments, environment, stdio, server, exit and signals
 */
export async function runCli(runtime: CliRuntime): Promise<void> {
  const [command, ...args] = runtime.args;
  const io = { env: runtime.env, print, printError };
  if (command === undefined) return await runService({ ...runtime, ...io });
  if (command === "keys") {
    const { runKeysCli } = await import("../keys-cli.ts");
    return runtime.exit(await runKeysCli(args, io));
  }
  if (command === "doctor") {
    const { runDoctorCli } = await import("../doctor/doctor-cli.ts");
    return runtime.exit(await runDoctorCli(args, io));
  }
  if (command === "mcp") return await runMcpMode(runtime);
  printError(`Unknown subcommand ${JSON.stringify(command)}: use keys, doctor or mcp, or none to serve`);
  runtime.exit(2);
}

/** MCP mode: JSON-RPC on stdout, so `console.log` goes to stderr and nothing (a library's print included) breaks it. */
async function runMcpMode(runtime: CliRuntime): Promise<void> {
  console.log = console.error;
  const { runMcp } = await import("../mcp/serve-stdio.ts");
  await runMcp({ ...runtime, ...runtime.stdio(), printError });
}

// Each looks `console.log` up when it prints: MCP mode points it at stderr once the command line has begun.
function print(line: string): void {
  console.log(line);
}

function printError(line: string): void {
  console.error(line);
}
