/** @module Runs the keys CLI as a separate process, as a user would, for the tests. */
import { spawn } from "bun";
import { commandFor, ROOT, targetFromEnv } from "../../support/service/process.ts";

/** What one run of the keys CLI did. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the keys CLI as a user would: `bun run keys ...`, or, with `entry`,
 * as a subcommand of the service's entry point (`<server command> keys ...`,
 * the same for `bun run server`, the compiled binary and Deno).
 * Bounded: killed after `timeoutMs` (20 s by default).
 */
export async function runKeys(
  env: Record<string, string>,
  args: string[],
  options: { entry?: boolean; timeoutMs?: number } = {},
): Promise<CliRun> {
  const command = options.entry
    ? [...commandFor(targetFromEnv()), "keys", ...args]
    : [process.execPath, "run", "--cwd", ROOT, "keys", ...args];
  const child = spawn(command, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Issues a key through the CLI (with `more` options, such as `--quota 10min/day`) and returns it with its id. */
export async function createKey(
  env: Record<string, string>,
  name: string,
  rateLimit?: string,
  more: string[] = [],
): Promise<{ key: string; id: string }> {
  const run = await runKeys(env, [
    "create",
    "--name",
    name,
    ...(rateLimit ? ["--rate-limit", rateLimit] : []),
    ...more,
    "--json",
  ]);
  if (run.code !== 0) throw new Error(`keys create failed (${run.code}): ${run.stderr}`);
  const created = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { key: string; id: string };
  return { key: created.key, id: created.id };
}

/**
 * A key's line of `keys usage --json` (the month) once `ready` holds it: counts are written within about 1 s, so it
 * reads again every 200 ms, for 8 s at most.
 *
 * @returns the line when `ready` held, else the last one read (undefined when the key had none)
 */
export async function usageLine<T extends { id: string }>(
  env: Record<string, string>,
  id: string,
  ready: (line: T) => boolean = () => true,
): Promise<T | undefined> {
  let line: T | undefined;
  for (const until = Date.now() + 8_000; Date.now() < until;) {
    const run = await runKeys(env, ["usage", "--json"], { entry: true });
    if (run.code !== 0) throw new Error(`keys usage exited ${run.code}: ${run.stderr}`);
    line = (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as T[]).find((r) => r.id === id);
    if (line && ready(line)) return line;
    await Bun.sleep(200);
  }
  return line;
}
