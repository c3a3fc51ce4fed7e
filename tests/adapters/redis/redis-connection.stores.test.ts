/** @module Tests of Redis keys, cache and rate limits shared by instances, and of Redis outages. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { issueKey } from "../../../src/adapters/keys/issued-api-keys.ts";
import { createMemoryRateLimiter } from "../../../src/adapters/limits/memory-rate-limiter.ts";
import { createRedisApiKeys } from "../../../src/adapters/keys/redis-api-keys.ts";
import { createRedisCache } from "../../../src/adapters/cache/redis-cache.ts";
import {
  createRedisConnection,
  type RedisConnection,
  type RedisLog,
} from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisRateLimiter } from "../../../src/adapters/limits/redis-rate-limiter.ts";
import { dropPrefix, type OwnRedis, startOwnRedis, testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";

const url = testRedisUrl();
const prefix = uniquePrefix("adapters");
const quiet: RedisLog = { warn() {}, info() {} };
const opened: RedisConnection[] = [];

async function connect(target = url, log: RedisLog = quiet): Promise<RedisConnection> {
  const connection = createRedisConnection({ url: target, prefix, log, commandTimeoutMs: 500 });
  opened.push(connection);
  expect(await connection.ready(3_000)).toBe(true);
  return connection;
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
  await dropPrefix(url, prefix);
});

describe("Redis state shared by instances", () => {
  test("a key issued through one connection is accepted through another, and refused there once revoked", async () => {
    const [a, b] = [
      createRedisApiKeys({ connection: await connect() }),
      createRedisApiKeys({ connection: await connect() }),
    ];
    const { key, record } = issueKey({ name: "shared", rateLimit: "5/min" });
    await a.add(record);
    expect(await b.verify(key)).toEqual({ id: record.id, name: "shared", rateLimit: "5/min" });
    expect((await b.list()).map((r) => r.id)).toContain(record.id);
    expect((await b.revoke(record.id))?.id).toBe(record.id);
    expect(await a.verify(key)).toBeUndefined();
    expect(await b.revoke(record.id)).toBeUndefined();
  });

  test("cached values round-trip as JSON, expire with their TTL, and stay in their namespace", async () => {
    const connection = await connect();
    const answers = createRedisCache<{ output: string; n: number[] }>({ connection, namespace: "answer" });
    const transcripts = createRedisCache<{ output: string }>({ connection, namespace: "transcript" });
    await answers.set("k", { output: "héllo ✓", n: [1, 2] }, 60_000);
    expect(await createRedisCache({ connection: await connect(), namespace: "answer" }).get("k")).toEqual({
      output: "héllo ✓",
      n: [1, 2],
    });
    expect(await transcripts.get("k")).toBeUndefined();
    await answers.set("short", { output: "x", n: [] }, 100);
    await Bun.sleep(250);
    expect(await answers.get("short")).toBeUndefined();
  });

  test("a limit of 5 admits exactly 5 of 20 concurrent requests spread over two instances", async () => {
    const budgetFor = () => ({ limit: 5, windowSeconds: 60 });
    const fallback = createMemoryRateLimiter({ budgetFor });
    const limiters = [await connect(), await connect()].map((connection) =>
      createRedisRateLimiter({ connection, budgetFor, failure: "open", fallback })
    );
    const identity = { id: `key_${crypto.randomUUID().slice(0, 8)}`, name: "busy" };
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => limiters[i % 2]!.take(identity)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.limit).toBe(5);
    expect(refused.remaining).toBe(0);
    expect(refused.resetSeconds).toBeGreaterThan(11);
    expect(refused.resetSeconds).toBeLessThanOrEqual(12);
    expect((await limiters[0]!.take(identity, 0)).allowed).toBe(true);
    expect((await limiters[1]!.take(identity, -1)).remaining).toBe(1);
    expect((await limiters[0]!.take(identity)).allowed).toBe(true);
    expect((await limiters[0]!.take(identity)).allowed).toBe(false);
  });

  test("a key without a budget costs no Redis call and carries no limit", async () => {
    const connection = await connect();
    const limiter = createRedisRateLimiter({
      connection,
      budgetFor: () => undefined,
      failure: "closed",
      fallback: createMemoryRateLimiter({ budgetFor: () => undefined }),
    });
    expect((await limiter.take({ id: "key_free", name: "free" })).limit).toBeUndefined();
  });
});

describe("Redis unreachable", () => {
  let own: OwnRedis;
  beforeAll(async () => {
    own = await startOwnRedis();
  });
  afterAll(async () => {
    await own?.dispose();
  });

  test("every adapter degrades at once, the outage is logged once, and all resumes when Redis is back", async () => {
    const events: string[] = [];
    const log: RedisLog = { warn: (event) => events.push(event), info: (event) => events.push(event) };
    const connection = await connect(own.url, log);
    const budgetFor = () => ({ limit: 2, windowSeconds: 60 });
    const cache = createRedisCache<string>({ connection, namespace: "answer" });
    const keys = createRedisApiKeys({ connection });
    const open = createRedisRateLimiter({
      connection,
      budgetFor,
      failure: "open",
      fallback: createMemoryRateLimiter({ budgetFor }),
    });
    const closed = createRedisRateLimiter({
      connection,
      budgetFor,
      failure: "closed",
      fallback: createMemoryRateLimiter({ budgetFor }),
    });
    const used = issueKey({ name: "used before" });
    const unused = issueKey({ name: "never used here" });
    await keys.add(used.record);
    await keys.add(unused.record);
    expect(await keys.verify(used.key)).toBeDefined();
    await cache.set("k", "v", 60_000);

    await own.stop();
    const started = performance.now();
    for (let i = 0; i < 10; i++) {
      expect(await cache.get("k")).toBeUndefined();
      await cache.set("k2", "v", 60_000);
    }
    expect((await keys.verify(used.key))?.name).toBe("used before");
    // A key not checked before the outage is neither let in nor called unknown: 503, come back shortly.
    expect(await keys.verify(unused.key).catch((error) => [error.code, error.retryAfterSeconds])).toEqual([
      "overloaded",
      5,
    ]);
    const identity = { id: "key_outage", name: "outage" };
    expect((await open.take(identity)).allowed).toBe(true);
    expect((await open.take(identity)).allowed).toBe(true);
    expect((await open.take(identity)).allowed).toBe(false);
    const refused = await closed.take(identity);
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(events.filter((e) => e === "redis_unavailable")).toHaveLength(1);
    expect(connection.available).toBe(false);

    await own.start();
    expect(await connection.ready(5_000)).toBe(true);
    expect(events.at(-1)).toBe("redis_recovered");
    await cache.set("k", "again", 60_000);
    expect(await cache.get("k")).toBe("again");
    expect((await closed.take({ id: "key_back", name: "back" })).allowed).toBe(true);
  });

  test("a Redis that stops answering costs one command timeout, then commands fail at once until it answers again", async () => {
    const connection = await connect(own.url);
    const cache = createRedisCache<string>({ connection, namespace: "answer" });
    await cache.set("frozen", "v", 60_000);
    own.freeze(true);
    try {
      let started = performance.now();
      expect(await cache.get("frozen")).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(1_500);
      started = performance.now();
      for (let i = 0; i < 5; i++) expect(await cache.get("frozen")).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      own.freeze(false);
    }
    expect(await connection.ready(5_000)).toBe(true);
    expect(await cache.get("frozen")).toBe("v");
  });
});
