/** @module Tests of the Redis LLM budget store: one budget for every instance, and its outage fallback. */
import { afterAll, describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";
import { createRedisBudgetStore } from "../../../../src/adapters/llm/budget/redis-budget-store.ts";
import {
  createRedisConnection,
  type RedisConnection,
  type RedisLog,
} from "../../../../src/adapters/redis/redis-connection.ts";
import { testRedisUrl, uniquePrefix } from "../../../support/redis-server.ts";

const FREE = { tokensPerWindow: 6000, requestsPerWindow: 30 };
const quiet: RedisLog = { warn() {}, info() {} };
const opened: RedisConnection[] = [];

async function instance(prefix: string, url = testRedisUrl()) {
  const connection = createRedisConnection({ url, prefix, log: quiet, commandTimeoutMs: 300 });
  opened.push(connection);
  await connection.ready(2_000);
  const fallback = createMemoryBudgetStore({ limits: FREE, windowMs: 60_000 });
  return {
    store: createRedisBudgetStore({
      connection,
      key: "llama-3.1-8b-instant",
      limits: FREE,
      windowMs: 60_000,
      fallback,
    }),
    fallback,
  };
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
});

describe("createRedisBudgetStore()", () => {
  test("is one budget for every instance: what one takes, the other cannot", async () => {
    const prefix = uniquePrefix("llm-budget");
    const [a, b] = [await instance(prefix), await instance(prefix)];
    expect(await a.store.take(5000)).toBe(0);
    expect(await b.store.take(2000)).toBeGreaterThan(9_000);
    expect(Math.round((await b.store.peek()).tokens / 100)).toBe(10);
  });

  test("what one instance learns from the provider, every instance plans with", async () => {
    const prefix = uniquePrefix("llm-budget");
    const [a, b] = [await instance(prefix), await instance(prefix)];
    await a.store.observe({ tokenLimit: 300_000, tokensRemaining: 250_000, requestLimit: 1000 });
    const view = await b.store.peek();
    expect([view.limits.tokensPerWindow, view.limits.requestsPerWindow]).toEqual([300_000, 1000]);
    expect(view.tokens).toBeGreaterThanOrEqual(250_000);
    await b.store.give(1_000_000);
    expect((await a.store.peek()).tokens).toBe(300_000);
  });

  test("while Redis is unreachable, each instance keeps to its own budget", async () => {
    const down = await instance(uniquePrefix("llm-budget"), "redis://127.0.0.1:1");
    expect(await down.store.take(5000)).toBe(0);
    expect(await down.store.take(2000)).toBeGreaterThan(0);
    expect((await down.fallback.peek()).tokens).toBeLessThan(1100);
  });
});
