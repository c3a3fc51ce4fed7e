/** @module The test Redis: the shared one from `TEST_REDIS_URL`, unique key prefixes, or a private server. */
import { spawn, type Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/**
 * The shared test Redis (`TEST_REDIS_URL`, started by scripts/test.sh).
 * Missing, the suite fails loudly rather than skipping: locally, run
 * `npm test`, or start one and export the variable.
 */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) {
    throw new Error(
      "TEST_REDIS_URL is not set: run the tests with `npm test` (it starts a Redis), or start one with " +
        "`redis-server --port 6391 --daemonize yes --save ''` and `export TEST_REDIS_URL=redis://127.0.0.1:6391`",
    );
  }
  return url;
}

/** A key prefix no other test file or run uses. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${crypto.randomUUID().slice(0, 8)}:`;
}

/**
 * Deletes every key under `prefix`, after a test file.
 *
 * @param redis a connection to use, or a URL to connect to for this alone
 */
export async function dropPrefix(redis: Redis | string, prefix: string): Promise<void> {
  const admin = typeof redis === "string" ? new Redis(redis) : redis;
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  if (typeof redis === "string") admin.disconnect();
}

/** A redis-server of the test's own, to stop and restart. */
export interface OwnRedis {
  url: string;
  port: number;
  /** Stops the server; with `save`, it writes its data first so a restart keeps it. */
  stop(options?: { save?: boolean }): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the server: connections stay open but nothing answers. */
  freeze(frozen: boolean): void;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/** `redis-server` on loopback `port`, its files in `dir`, nothing saved to disk; `more` settings after. */
export function redisServerCommand(port: number, dir: string, more: string[] = []): string[] {
  return ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    .concat(["--dir", dir], more);
}

/** Starts a redis-server on a free loopback port; waits (at most 5 s) until it answers. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), "vcs-redis-"));
  const port = await freePort();
  let child: Subprocess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(redisServerCommand(port, dir), { stdout: "ignore", stderr: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (await ping(port)) return;
      await Bun.sleep(50);
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async (options: { save?: boolean } = {}): Promise<void> => {
    if (!child || child.exitCode !== null) return;
    child.kill("SIGCONT");
    if (options.save) Bun.spawnSync(["redis-cli", "-p", String(port), "shutdown", "save"]);
    else child.kill("SIGKILL");
    await child.exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    freeze: (frozen) => child?.kill(frozen ? "SIGSTOP" : "SIGCONT"),
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function ping(port: number): Promise<boolean> {
  const result = Bun.spawnSync(["redis-cli", "-p", String(port), "ping"]);
  return result.stdout.toString().trim() === "PONG";
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}
