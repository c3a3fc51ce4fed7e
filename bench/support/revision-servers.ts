/** @module Services of git revisions (worktrees under /tmp) started side by side for the cached-path benches. */
import { spawn, spawnSync } from "bun";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { ROOT } from "../../tests/support/service/process.ts";
import { freePort } from "./startup-measure.ts";
import { rateLimitOff } from "./trees.ts";
import { serviceEnv } from "./cached-load.ts";

/** Where a server's stdout (one JSON line per request) goes. */
export type LogSink = "null" | "pipe" | "file";

/** One server the bench measures: bare, or a revision's service, metered or not. */
export interface RevisionServer {
  name: string;
  port: number;
  child: ReturnType<typeof spawn>;
  /** The checkout it runs from (the bare server's: this one). */
  dir: string;
}

/**
 * Detached worktrees of git revisions and the servers started from them, all removed by `close`.
 *
 * @param tag names the worktrees and scratch folders (`/tmp/<tag>-...`)
 */
export function createRevisionServers(
  tag: string,
  upstreams: { youtube: string; llm?: { baseUrl: string; origin: string } },
) {
  const scratch = `/tmp/${tag}-${process.pid}`;
  const worktrees = new Map<string, string>();
  const servers: RevisionServer[] = [];

  /**
   * A detached worktree of `revision` (one per revision), using this checkout's packages; a folder (`.`, or a path
   * with a `/`) is used as it is, uncommitted changes included, to measure a change before committing it.
   */
  const checkout = (revision: string): string => {
    if (revision === "." || revision.includes("/")) return revision === "." ? ROOT : revision;
    const known = worktrees.get(revision);
    if (known) return known;
    const dir = `${scratch}-tree-${worktrees.size}`;
    const added = spawnSync(["git", "worktree", "add", "--detach", "-f", dir, revision], { cwd: ROOT });
    if (added.exitCode !== 0) throw new Error(`git worktree add ${revision}: ${added.stderr.toString()}`);
    worktrees.set(revision, dir);
    symlinkSync(`${ROOT}/node_modules`, `${dir}/node_modules`);
    return dir;
  };

  /**
   * Starts a server on a free port with the service's bench settings, its own usage file (`KEYS_FILE`'s folder) and
   * stdout to `log`: `pipe` is a pipe another process (`cat`) drains, as a supervisor or container runtime reads it.
   */
  const start = async (
    name: string,
    command: string[],
    dir: string,
    options: { log: LogSink; env?: Record<string, string> },
  ): Promise<RevisionServer> => {
    const port = await freePort();
    const data = `${scratch}-data-${servers.length}`;
    mkdirSync(data, { recursive: true });
    const env: Record<string, string> = { ...serviceEnv(port, upstreams.youtube), KEYS_FILE: `${data}/api-keys.json` };
    if (upstreams.llm) Object.assign(env, fakeLlmEnv(dir, upstreams.llm));
    const off = rateLimitOff(dir).RATE_LIMIT;
    if (off) env.RATE_LIMIT = off;
    Object.assign(env, options.env);
    // `exec` keeps the server's own pid (its CPU time is read from /proc); bash only sets up the pipe to `cat`.
    const argv = options.log === "pipe"
      ? ["bash", "-c", 'exec "$@" > >(exec cat >/dev/null)', "bash", ...command]
      : command;
    const stdout = options.log === "file"
      ? Bun.file(`${data}/stdout.log`)
      : options.log === "pipe"
      ? "inherit"
      : "ignore";
    const child = spawn(argv, { cwd: dir, env, stdout, stderr: "inherit" });
    const server = { name, port, child, dir };
    servers.push(server);
    return server;
  };

  /** The service of `revision` (`HEAD`, a hash), with `env` added. */
  const startRevision = (name: string, revision: string, options: { log: LogSink; env?: Record<string, string> }) =>
    start(name, [process.execPath, "src/app/main-bun.ts"], checkout(revision), options);

  return {
    servers,
    start,
    startRevision,
    checkout,
    async close(): Promise<void> {
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.child.exited));
      for (const dir of worktrees.values()) spawnSync(["git", "worktree", "remove", "--force", dir], { cwd: ROOT });
      for (let i = 0; i < servers.length; i++) rmSync(`${scratch}-data-${i}`, { recursive: true, force: true });
    },
  };
}

/** Whether the checkout at `dir` meters usage (quotas): revisions before the usage meter have none. */
export function hasUsageMeter(dir: string): boolean {
  return existsSync(`${dir}/src/adapters/usage/usage-meter.ts`);
}

/**
 * The fake LLM as the service's provider, with a budget that never paces (the fake states no limits). Revisions from
 * before the fake moved to `tests/support/fake/` (4d99254 among them) add Groq's `/openai/v1` to the origin themselves.
 */
function fakeLlmEnv(dir: string, llm: { baseUrl: string; origin: string }): Record<string, string> {
  return {
    GROQ_API_KEY: "gsk_fake_for_benches",
    GROQ_BASE_URL: existsSync(`${dir}/tests/support/fake/llm.ts`) ? llm.baseUrl : llm.origin,
    GROQ_MODEL: "fake-model",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
  };
}
