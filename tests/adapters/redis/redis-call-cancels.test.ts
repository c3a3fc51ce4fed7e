/** @module Tests of cancellations of calls: in this process, across instances through Redis, and Redis down. */
import { afterAll, describe, expect, test } from "bun:test";
import {
  createRedisConnection,
  type RedisConnection,
  type RedisLog,
} from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisCallCancels } from "../../../src/adapters/redis/redis-call-cancels.ts";
import { testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";

const url = testRedisUrl();
const quiet: RedisLog = { warn() {}, info() {} };
const opened: RedisConnection[] = [];

/** One "instance" on Redis: its own connection (and subscriber). */
async function instance(prefix: string, target = url) {
  const connection = createRedisConnection({ url: target, prefix, log: quiet, commandTimeoutMs: 500 });
  opened.push(connection);
  if (target === url) expect(await connection.ready(3_000)).toBe(true);
  const cancels = createRedisCallCancels({ connection });
  await Bun.sleep(100); // lets the subscriber connect and subscribe
  return cancels;
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
});

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await Bun.sleep(5);
}

describe("createRedisCallCancels()", () => {
  test("without Redis, a cancellation reaches the calls watching its key in this process, and no other", async () => {
    const cancels = createRedisCallCancels();
    const seen: string[] = [];
    const stop = cancels.watch("a", () => seen.push("a1"));
    cancels.watch("a", () => seen.push("a2"));
    cancels.watch("b", () => seen.push("b"));
    await cancels.cancel("a");
    expect(seen).toEqual(["a1", "a2"]);
    stop();
    await cancels.cancel("a");
    expect(seen).toEqual(["a1", "a2", "a2"]);
  });

  test("a cancellation sent to one instance reaches the call on another, on the same prefix only", async () => {
    const prefix = uniquePrefix("cancels");
    const [one, two, elsewhere] = [
      await instance(prefix),
      await instance(prefix),
      await instance(uniquePrefix("cancels-other")),
    ];
    let onTwo = 0;
    let onOther = 0;
    two.watch("key:session:7", () => onTwo++);
    elsewhere.watch("key:session:7", () => onOther++);
    await one.cancel("key:session:7");
    await until(() => onTwo > 0);
    expect(onTwo).toBe(1);
    await Bun.sleep(100);
    expect(onOther).toBe(0);
  });

  test("an instance that stopped watching is not told", async () => {
    const prefix = uniquePrefix("cancels");
    const [one, two] = [await instance(prefix), await instance(prefix)];
    let told = 0;
    const stop = two.watch("done-call", () => told++);
    stop();
    await one.cancel("done-call");
    await Bun.sleep(150);
    expect(told).toBe(0);
  });

  test("with Redis unreachable, cancel() neither throws nor hangs, and still reaches this process", async () => {
    const cancels = await instance(uniquePrefix("cancels"), "redis://127.0.0.1:1");
    let told = 0;
    cancels.watch("k", () => told++);
    const started = performance.now();
    await cancels.cancel("k");
    expect(told).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
