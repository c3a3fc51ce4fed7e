import { spawn, type Subprocess } from "bun";
import { fileURLToPath } from "node:url";

/** How the service under test is run (`E2E_TARGET`): `bun run server`, the compiled binary, or Deno. */
export type Target = "bun" | "binary" | "deno";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface RunningService {
  url: string;
  process: Subprocess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** @returns the target named by `E2E_TARGET`, `bun` by default */
export function targetFromEnv(): Target {
  const target = process.env.E2E_TARGET ?? "bun";
  if (target !== "bun" && target !== "binary" && target !== "deno") throw new Error(`E2E_TARGET must be bun, binary or deno: current value is ${target}`);
  return target;
}

/** The command that starts each target. The binary path comes from `E2E_BINARY` (built by `bun run build`). */
export function commandFor(target: Target): string[] {
  if (target === "binary") return [process.env.E2E_BINARY ?? `${ROOT}dist/video-chat-service`];
  if (target === "deno") return [`${ROOT}node_modules/.bin/deno`, "task", "--cwd", ROOT, "server"];
  return [process.execPath, "run", "--cwd", ROOT, "server"];
}

/**
 * Starts the real service as a child process on a free port and waits for
 * its banner. The environment is exactly `env` plus PATH and HOME, so the
 * developer's own settings never leak into a test.
 */
export async function startService(env: Record<string, string>, options: { target?: Target; cwd?: string; timeoutMs?: number } = {}): Promise<RunningService> {
  const target = options.target ?? targetFromEnv();
  let output = "";
  const child = spawn(commandFor(target), {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "json", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  void collect(child.stdout);
  void collect(child.stderr);
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let url: string | undefined;
  while (!url) {
    url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
    if (url) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`The service (${target}) did not start:\n${output}`);
    }
    await Bun.sleep(25);
  }
  return {
    url,
    process: child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return await child.exited;
    },
  };
}

/** Sends `POST /chat` with a JSON body. */
export function postChat(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
