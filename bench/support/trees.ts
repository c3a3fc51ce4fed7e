/** @module Starts `bun run server` of a checkout (this one, or another to compare with) for the before/after benches. */
import { type RunningService, startService } from "../../tests/support/service/process.ts";

/** This checkout: the tree a bench measures as "after". */
export const THIS_TREE = new URL("../../", import.meta.url).pathname;

/**
 * Starts `bun run server` in the checkout at `dir` (its own node_modules) with exactly `env` plus the
 * test defaults (port 0, loopback, JSON logs), and waits for its banner.
 */
export function startTree(dir: string, env: Record<string, string>): Promise<RunningService> {
  return startService(env, { command: [process.execPath, "run", "--cwd", dir, "server"], cwd: dir, timeoutMs: 30_000 });
}
