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

  test("a take sees the budget it found and takes in one step; a take that must wait takes nothing", async () => {
    const prefix = uniquePrefix("llm-budget");
    const [a, b] = [await instance(prefix), await instance(prefix)];
    const first = await a.store.takeAndLook(5000);
    expect([first.wait, first.before.tokens, first.before.limits.tokensPerWindow]).toEqual([0, 6000, 6000]);
    const second = await b.store.takeAndLook(2000);
    expect(second.wait).toBeGreaterThan(9_000);
    expect(Math.round(second.before.tokens / 100)).toBe(10);
    expect(Math.round((await a.store.peek()).tokens / 100)).toBe(10);
  });

  test("a settle gives back and learns in one step, and every instance sees the budget it left", async () => {
    const prefix = uniquePrefix("llm-budget");
    const [a, b] = [await instance(prefix), await instance(prefix)];
    await a.store.take(5000);
    const settled = await a.store.settle(3000, { tokenLimit: 6000, tokensRemaining: 2500, requestLimit: 40 });
    // 1,000 left, 4,000 after the give-back, then the provider's lower 2,500.
    expect([Math.round(settled.tokens / 100), settled.limits.requestsPerWindow]).toEqual([25, 40]);
    expect(Math.round((await b.store.peek()).tokens / 100)).toBe(25);
    expect(Math.round((await b.store.settle(1000)).tokens / 100)).toBe(35);
    expect((await a.fallback.peek()).limits.requestsPerWindow).toBe(40);
  });

  test("a look read from the hash alone sees what the script sees: levels, limits, blocks, the day", async () => {
    const prefix = uniquePrefix("llm-budget");
    const [a, b] = [await instance(prefix), await instance(prefix)];
    expect(await b.store.peek()).toEqual((await a.store.takeAndLook(1e9)).before); // nothing stored yet: the assumed
    await a.store.take(2500);
    await a.store.observe({
      tokenLimit: 6000,
      tokensRemaining: 3000,
      retryAfterMs: 20_000,
      dayTokenLimit: 500_000,
      dayTokensRemaining: 400_000,
      dayRequestLimit: 1000,
    });
    const [looked, found] = [await b.store.peek(), (await a.store.takeAndLook(1e9)).before];
    // The two read Redis's clock a moment apart: a few ms of refill, of block.
    expect(looked.limits).toEqual(found.limits);
    expect(Math.abs(looked.tokens - found.tokens)).toBeLessThan(10);
    expect(Math.abs(looked.dayTokens - found.dayTokens)).toBeLessThan(10);
    expect(looked.dayRequests).toBe(found.dayRequests);
    expect(Math.abs(looked.blockedMs - found.blockedMs)).toBeLessThan(100);
    expect(looked.blockedMs).toBeGreaterThan(19_000);
  });

  test("while Redis is unreachable, each instance keeps to its own budget", async () => {
    const down = await instance(uniquePrefix("llm-budget"), "redis://127.0.0.1:1");
    expect(await down.store.take(5000)).toBe(0);
    expect(await down.store.take(2000)).toBeGreaterThan(0);
    expect((await down.fallback.peek()).tokens).toBeLessThan(1100);
  });
});
