/** @module Runs the service under test as a process on Bun, the compiled binary or Deno (`E2E_TARGET`). */
import { spawn, type Subprocess } from "bun";
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** How the service under test is run (`E2E_TARGET`): `bun run server`, the compiled binary, or Deno. */
export type Target = "bun" | "binary" | "deno";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface RunningService {
  url: string;
  process: Subprocess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /**
   * The output once it holds `text`, or at the deadline (the caller's expect then says what is missing):
   * log lines are written a timer turn after the response, so they can come after it.
   */
  outputWith(text: string, timeoutMs?: number): Promise<string>;
  /** The exit code, once the process has exited and all it printed has been read. */
  finished(): Promise<number>;
  /** Sends `signal` (SIGTERM by default) and returns `finished()`. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** @returns the target named by `E2E_TARGET`, `bun` by default */
export function targetFromEnv(): Target {
  const target = process.env.E2E_TARGET ?? "bun";
  if (target !== "bun" && target !== "binary" && target !== "deno") {
    throw new Error(`E2E_TARGET must be bun, binary or deno: current value is ${target}`);
  }
  return target;
}

/** The compiled binary under test: `E2E_BINARY`, else the one `bun run build` writes. */
export function binaryPath(): string {
  return process.env.E2E_BINARY ?? `${ROOT}dist/video-chat-service`;
}

/**
 * The command that starts each target, with `args` passed to the service's
 * entry point (a subcommand such as `keys list`, the same on every target).
 */
export function commandFor(target: Target, args: string[] = []): string[] {
  if (target === "binary") return [binaryPath(), ...args];
  if (target === "deno") return [`${ROOT}node_modules/.bin/deno`, "task", "--cwd", ROOT, "server", ...args];
  return [process.execPath, "run", "--cwd", ROOT, "server", ...args];
}

/**
 * Where each target runs by default: the binary from its own directory (in CI
 * a fresh temporary one holding nothing else), the others from the project.
 */
export function defaultCwd(target: Target): string {
  return target === "binary" && process.env.E2E_BINARY ? dirname(process.env.E2E_BINARY) : ROOT;
}

/**
 * A test's settings: a value of `undefined` leaves that variable out altogether, even one of the defaults below
 * (`{ RATE_LIMIT: undefined }` starts the service with no `RATE_LIMIT` at all, as an operator who set none would).
 */
export type ServiceEnv = Record<string, string | undefined>;

/**
 * The environment a test process gets: exactly `env` plus PATH, HOME and test-friendly defaults.
 *
 * `RATE_LIMIT=none`: the service limits every key to 60/min when `RATE_LIMIT` is unset, and most files send more
 * than that with one key in seconds (load, fuzz, soak, overload) while their subject is something else. A test
 * about limits sets its own `RATE_LIMIT`, or leaves it out (`undefined`) to get the service's default.
 */
function childEnv(env: ServiceEnv): Record<string, string> {
  const merged: ServiceEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_FORMAT: "json",
    RATE_LIMIT: "none",
    ...env,
  };
  return Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Runs the service's entry point to its exit (a subcommand, or a start-up
 * that must fail) and returns its exit code, everything it printed, and its standard output alone.
 */
export async function runToExit(
  env: ServiceEnv,
  options: { target?: Target; cwd?: string; args?: string[]; timeoutMs?: number } = {},
): Promise<{ code: number; output: string; stdout: string }> {
  const target = options.target ?? targetFromEnv();
  const child = track(
    spawn(commandFor(target, options.args), {
      cwd: options.cwd ?? defaultCwd(target),
      env: childEnv(env),
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  const timer = setTimeout(() => killTree(child, "SIGKILL"), options.timeoutMs ?? 20_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code, output: stdout + stderr, stdout };
}

/**
 * Starts the real service as a child process on a free port and waits for
 * its banner through its "LLM backend" line (the banner is one write, so the
 * lines after it, such as a generated key, have come with it). The
 * environment is exactly `env` plus PATH, HOME and the defaults of `childEnv` (`RATE_LIMIT=none` among them), so the
 * developer's own settings never leak into a test.
 */
export async function startService(
  env: ServiceEnv,
  options: { target?: Target; cwd?: string; timeoutMs?: number; command?: string[] } = {},
): Promise<RunningService> {
  const target = options.target ?? targetFromEnv();
  let output = "";
  const child = track(
    spawn(options.command ?? commandFor(target), {
      cwd: options.cwd ?? defaultCwd(target),
      env: childEnv(env),
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  const read = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let url: string | undefined;
  while (!url) {
    url = /listening on (http:\/\/[^\s]+)[\s\S]*\n {2}LLM backend: [^\n]*\n/.exec(output)?.[1];
    if (url) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      killTree(child, "SIGKILL");
      throw new Error(`The service (${target}) did not start:\n${output}`);
    }
    await Bun.sleep(25);
  }
  const finished = async () => {
    const code = await child.exited;
    // A grandchild still holding the pipes must not hang the test: the rest of the output gets 2 s.
    await Promise.race([read, Bun.sleep(2_000)]);
    return code;
  };
  return {
    url,
    process: child,
    output: () => output,
    async outputWith(text, timeoutMs = 5_000) {
      for (const deadline = Date.now() + timeoutMs; !output.includes(text) && Date.now() < deadline;) {
        await Bun.sleep(10);
      }
      return output;
    },
    finished,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) killTree(child, signal);
      return await finished();
    },
  };
}

/** Sends `POST /chat` with a JSON body. */
export function postChat(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });
}

// `bun run` and `deno task` run the server as a child: a SIGKILL to the launcher
// alone (a timeout) would leave the server running, so SIGKILL goes to the whole
// tree. Launchers forward SIGTERM and SIGINT themselves. Scripts (benchmarks, the
// soak) that exit with services still running take them down too; `bun test` runs
// no exit handlers, so tests stop what they start.
const running = new Set<Subprocess>();
process.on("exit", () => {
  for (const child of running) killTree(child, "SIGKILL");
});

function track<T extends Subprocess>(child: T): T {
  running.add(child);
  void child.exited.then(() => running.delete(child));
  return child;
}

/** Sends `signal` to the process, and for SIGKILL to all its descendants first (Linux /proc). */
function killTree(child: Subprocess, signal: NodeJS.Signals): void {
  if (signal === "SIGKILL") {
    for (const pid of descendantsOf(child.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  child.kill(signal);
}

/** @returns the process's descendants, deepest first; none where /proc is missing */
function descendantsOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (listed) children.push(...listed.split(/\s+/).map(Number));
    }
  } catch {
    return [];
  }
  return children.flatMap((child) => [...descendantsOf(child), child]);
}

/**
 * The admin URL from the banner. The banner's lines may arrive one by one, so this
 * waits for the admin line rather than trusting that it came with the first.
 */
export async function adminUrlOf(service: RunningService, timeoutMs = 3_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let match = /Admin:\s+(http:\/\/\S+)/.exec(service.output());
  while (!match && Date.now() < until) {
    await Bun.sleep(10);
    match = /Admin:\s+(http:\/\/\S+)/.exec(service.output());
  }
  if (!match) throw new Error(`No admin URL in the banner:\n${service.output()}`);
  return match[1]!;
}
