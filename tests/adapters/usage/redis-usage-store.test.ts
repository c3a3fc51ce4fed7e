/** @module Tests of the Redis usage store: the store contract across connections, key names and lifetimes. */
import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { createRedisConnection, type RedisConnection } from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisUsageStore, markRevoked } from "../../../src/adapters/usage/redis-usage-store.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";
import { holdOf, usageStoreContract } from "./usage-store-contract.ts";

const url = testRedisUrl();
const prefix = uniquePrefix("usage-store");
const opened: RedisConnection[] = [];
const admin = new Redis(url);

afterAll(async () => {
  for (const connection of opened) await connection.close();
  await dropPrefix(admin, prefix);
  admin.disconnect();
});

/** Each store on a connection of its own, as two instances have. */
async function open() {
  const connection = createRedisConnection({ url, prefix, log: { warn() {}, info() {} } });
  opened.push(connection);
  expect(await connection.ready(3_000)).toBe(true);
  return createRedisUsageStore({ connection });
}

describe("createRedisUsageStore()", () => {
  usageStoreContract("redis", open);

  test("counts live under the prefix, per period and key, and expire (days after about three months); holds leave only markers", async () => {
    const store = await open();
    const hold = holdOf();
    expect((await store.hold(hold)).granted).toBe(true);
    await store.write([{ keyId: hold.keyId, periods: hold.periods, holds: [hold.holdId], counts: { requests: 1 } }]);
    const day = `${prefix}usage:${hold.periods.day}:${hold.keyId}`;
    expect(await admin.hgetall(day)).toEqual({ requests: "1" });
    expect(await admin.ttl(day)).toBeGreaterThan(90 * 86_400);
    expect(await admin.ttl(day)).toBeLessThan(100 * 86_400);
    expect(await admin.ttl(`${prefix}usage:${hold.periods.month}:${hold.keyId}`)).toBeGreaterThan(700 * 86_400);
    expect(await admin.sismember(`${prefix}usage-keys:${hold.periods.month}`, hold.keyId)).toBe(1);
    // Only markers are left (`=next`, `=ttl`, `=idx`): no hold, no total; and the hash expires by itself.
    const inflight = `${prefix}usage-inflight:${hold.keyId}`;
    expect(Object.keys(await admin.hgetall(inflight)).filter((field) => !field.startsWith("="))).toEqual([]);
    expect(await admin.pttl(inflight)).toBeGreaterThan(0);
  });

  test("a revoked key's holds are refused from the next one, and the mark outlives any memory of the key (a day)", async () => {
    const store = await open();
    const hold = holdOf();
    expect((await store.hold(hold)).granted).toBe(true);
    await markRevoked(opened.at(-1)!, hold.keyId);
    expect(await store.hold({ ...hold, holdId: "after" })).toMatchObject({ granted: false, revoked: true });
    const inflight = `${prefix}usage-inflight:${hold.keyId}`;
    expect(await admin.pttl(inflight)).toBeGreaterThan(86_000_000);
    const fresh = holdOf({ keyId: "key_never_held" });
    await markRevoked(opened.at(-1)!, fresh.keyId);
    expect(await store.hold(fresh)).toMatchObject({ granted: false, revoked: true });
    expect(await admin.pttl(`${prefix}usage-inflight:${fresh.keyId}`)).toBeGreaterThan(86_000_000);
  });

  test("the answered counts a hold reads are kept beside the holds, grow with the write behind, and go the next day", async () => {
    const store = await open();
    const quotas = [{ limit: 10, unit: "req", period: "day" }, { limit: 100, unit: "req", period: "month" }] as const;
    const first = holdOf({ quotas, need: { min: 0, req: 1 }, amounts: { min: 0, req: 1 } });
    const { keyId, periods } = first;
    await store.write([{ keyId, periods, counts: { requests: 2 } }]); // before any hold: read from the ledger
    expect(await store.hold(first)).toEqual({ granted: true, used: [2, 2], held: [0, 0] });
    const inflight = `${prefix}usage-inflight:${keyId}`;
    expect(await admin.hget(inflight, `=a|${periods.day}|req`)).toBe("2");
    await store.write([{ keyId, periods, holds: [first.holdId], counts: { requests: 1, minutes: 4 } }]);
    expect(await admin.hmget(inflight, `=a|${periods.day}|req`, `=a|${periods.month}|min`)).toEqual(["3", "4"]);
    expect(await store.hold({ ...first, holdId: "second" })).toEqual({ granted: true, used: [3, 3], held: [0, 0] });
    const next = { day: "2026-11-15", month: periods.month };
    expect(await store.hold({ ...first, holdId: "third", periods: next })).toEqual({
      granted: true,
      used: [0, 4],
      held: [0, 1],
    });
    expect(await admin.hexists(inflight, `=a|${periods.day}|req`)).toBe(0);
    expect(await admin.hget(inflight, `=a|${periods.month}|req`)).toBe("3");
  });

  test("an unreachable Redis fails the call (the meter then counts in memory)", async () => {
    const connection = createRedisConnection({
      url: "redis://127.0.0.1:1",
      prefix,
      log: { warn() {}, info() {} },
      commandTimeoutMs: 200,
    });
    opened.push(connection);
    const store = createRedisUsageStore({ connection });
    await expect(store.hold(holdOf())).rejects.toThrow();
  });
});
