/** @module Tests of redis-route-states.ts on a real Redis: shared breaker states, trial claims, fallback to memory. */
import { afterAll, describe, expect, test } from "bun:test";
import { createRedisConnection, type RedisConnection } from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisRouteStates } from "../../../src/adapters/redis/redis-route-states.ts";
import { createMemoryRouteStates, createRouteBreaker } from "../../../src/adapters/youtube/route-breaker.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";

const url = testRedisUrl();
const prefix = uniquePrefix("routes");
const opened: RedisConnection[] = [];
const clock = { at: Date.now() };

async function breaker(target = url) {
  const connection = createRedisConnection({
    url: target,
    prefix,
    log: { warn() {}, info() {} },
    commandTimeoutMs: 500,
  });
  opened.push(connection);
  await connection.ready(target === url ? 3_000 : 100);
  const store = createRedisRouteStates({ connection, fallback: createMemoryRouteStates() });
  return createRouteBreaker({ store, failures: 2, cooldownMs: 60_000, trialLeaseMs: 60_000, now: () => clock.at });
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
  await dropPrefix(url, prefix);
});

describe("createRedisRouteStates()", () => {
  test("a route opened by one instance is skipped by another, and its one trial is made by one instance only", async () => {
    const [a, b] = [await breaker(), await breaker()];
    await a.blocked("gate");
    await b.blocked("gate");
    expect((await a.admit("gate")).ok).toBe(false);
    expect((await b.admit("gate")).ok).toBe(false);
    expect((await b.admit("other")).ok).toBe(true);
    clock.at += 60_000;
    expect(await b.admit("gate")).toEqual({ ok: true, trial: true });
    expect((await a.admit("gate")).ok).toBe(false);
    await b.passed("gate");
    expect(await a.admit("gate")).toEqual({ ok: true, trial: false });
  });

  test("Redis unreachable: each instance keeps its own state in memory", async () => {
    const down = await breaker("redis://127.0.0.1:1");
    await down.blocked("r");
    expect((await down.admit("r")).ok).toBe(true);
    await down.blocked("r");
    expect((await down.admit("r")).ok).toBe(false);
  });
});
