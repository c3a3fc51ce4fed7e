/** @module Starts `bun run server` of a checkout (this one, or another to compare with) for the before/after benches. */
import { existsSync, readFileSync } from "node:fs";
import { type RunningService, type ServiceEnv, startService } from "../../tests/support/service/process.ts";

/** This checkout: the tree a bench measures as "after". */
export const THIS_TREE = new URL("../../", import.meta.url).pathname;

/**
 * Starts `bun run server` in the checkout at `dir` (its own node_modules) with exactly `env` plus the
 * test defaults (port 0, loopback, JSON logs), and waits for its banner.
 */
export function startTree(dir: string, env: Record<string, string>): Promise<RunningService> {
  return startService({ ...rateLimitOff(dir), ...env }, {
    command: [process.execPath, "run", "--cwd", dir, "server"],
    cwd: dir,
    timeoutMs: 30_000,
  });
}

/**
 * The setting that leaves the keys of the checkout at `dir` unlimited: `RATE_LIMIT=none` where a default limit
 * exists (60/min, which a bench's one key outruns), no `RATE_LIMIT` at all in a checkout from before it, which
 * had no default and refuses `none` at start-up.
 */
export function rateLimitOff(dir: string): ServiceEnv {
  const spec = `${dir.replace(/\/?$/, "/")}src/app/config/rate-limit-spec.ts`;
  const knowsNone = existsSync(spec) && readFileSync(spec, "utf8").includes("NO_RATE_LIMIT");
  return { RATE_LIMIT: knowsNone ? "none" : undefined };
}
