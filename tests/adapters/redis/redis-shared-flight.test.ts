/** @module Tests of work shared across instances through Redis: leases, wake-ups, takeover and outages. */
import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { AppError, isAppError } from "../../../src/domain/errors.ts";
import type { SharedFlight } from "../../../src/domain/ports.ts";
import {
  createRedisConnection,
  type RedisConnection,
  type RedisLog,
} from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisSharedFlight } from "../../../src/adapters/redis/redis-shared-flight.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";

const url = testRedisUrl();
const prefix = uniquePrefix("flight");
const quiet: RedisLog = { warn() {}, info() {} };
const opened: RedisConnection[] = [];
const admin = new Redis(url);

/** One "instance": its own connection (and subscriber) and its own flight. */
async function instance(leaseMs = 5_000, target = url): Promise<SharedFlight> {
  const connection = createRedisConnection({ url: target, prefix, log: quiet, commandTimeoutMs: 500 });
  opened.push(connection);
  if (target === url) expect(await connection.ready(3_000)).toBe(true);
  const flight = createRedisSharedFlight({ connection, leaseMs });
  await Bun.sleep(50); // lets the subscriber connect
  return flight;
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
  await dropPrefix(admin, prefix);
  admin.disconnect();
});

const counted = <T>(value: T, ms: number) => {
  const work = { runs: 0, run: async () => (work.runs++, await Bun.sleep(ms), value) };
  return work;
};

describe("createRedisSharedFlight()", () => {
  test("identical calls on three instances run the work once; the others get its value as local or remote", async () => {
    const flights = [await instance(), await instance(), await instance()];
    const work = counted({ answer: 42 }, 150);
    const key = `k-${crypto.randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => flights[i % 3]!.run(key, work.run)));
    expect(work.runs).toBe(1);
    expect(results.every((r) => r.value.answer === 42)).toBe(true);
    const roles = results.map((r) => r.role);
    expect(roles.filter((r) => r === "owner")).toHaveLength(1);
    expect(roles.filter((r) => r === "remote")).toHaveLength(20);
    expect(roles.filter((r) => r === "local")).toHaveLength(9);
  });

  test("work no waiter elsewhere says it waits for stores no outcome and wakes nobody; one waited for stores it", async () => {
    const [alone, waiterSide] = [await instance(), await instance()];
    const outcomes = async () => (await admin.keys(`${prefix}flight:outcome:*`)).length;
    const before = await outcomes();
    const lonely = `alone-${crypto.randomUUID()}`;
    expect(await alone.run(lonely, async () => "alone")).toEqual({ value: "alone", role: "owner" });
    expect(await outcomes()).toBe(before);
    expect(await admin.exists(`${prefix}flight:lease:${lonely}`)).toBe(0);
    const shared = `waited-${crypto.randomUUID()}`;
    const work = counted("shared", 200);
    const [owner, waiter] = await Promise.all([
      alone.run(shared, work.run),
      Bun.sleep(50).then(() => waiterSide.run(shared, work.run)),
    ]);
    expect([owner.role, waiter.role, waiter.value, work.runs]).toEqual(["owner", "remote", "shared", 1]);
    expect(await outcomes()).toBe(before + 1);
  });

  test("a failure reaches the waiters on other instances with its code, and is not kept: the next call runs again", async () => {
    const [a, b] = [await instance(), await instance()];
    const key = `fail-${crypto.randomUUID()}`;
    let runs = 0;
    const failing = async (): Promise<string> => {
      runs++;
      await Bun.sleep(100);
      throw new AppError("video_unavailable", "This video is unavailable");
    };
    const settled = await Promise.allSettled([a.run(key, failing), b.run(key, failing), b.run(key, failing)]);
    expect(runs).toBe(1);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      const reason = (s as PromiseRejectedResult).reason;
      expect(isAppError(reason, "video_unavailable")).toBe(true);
      expect(reason.message).toBe("This video is unavailable");
    }
    expect((await b.run(key, async () => "fresh")).value).toBe("fresh");
  });

  test("a waiter is woken by the owner's message, not by its next poll", async () => {
    const [a, b] = [await instance(60_000), await instance(60_000)];
    const key = `wake-${crypto.randomUUID()}`;
    const owner = a.run(key, counted("v", 700).run);
    await Bun.sleep(20);
    const started = performance.now();
    // Polling alone would look at about 20, 60, 140, 300, 620 and 1260 ms.
    expect((await b.run(key, async () => "not me")).value).toBe("v");
    expect(performance.now() - started).toBeLessThan(1_000);
    await owner;
  });

  test("the owner renews its lease while it works, so a waiter never takes over a live owner", async () => {
    const [a, b] = [await instance(200), await instance(200)];
    const work = counted("slow", 900);
    const key = `renew-${crypto.randomUUID()}`;
    const results = await Promise.all([a.run(key, work.run), (await Bun.sleep(20), b.run(key, work.run))]);
    expect(work.runs).toBe(1);
    expect(results.map((r) => r.role)).toEqual(["owner", "remote"]);
  });

  test("a lease whose owner died (never renewed) is taken over within the lease plus one poll", async () => {
    const flight = await instance(300);
    const key = `dead-${crypto.randomUUID()}`;
    await admin.set(`${prefix}flight:lease:${key}`, "dead-instance:token", "PX", 300);
    const started = performance.now();
    const work = counted("taken over", 10);
    const results = await Promise.all([flight.run(key, work.run), flight.run(key, work.run)]);
    const waited = performance.now() - started;
    expect(work.runs).toBe(1);
    expect(results.map((r) => r.role)).toEqual(["owner", "local"]);
    expect(waited).toBeGreaterThan(250);
    expect(waited).toBeLessThan(300 + 75 + 200);
  });

  test("a waiter that gives up stops waiting alone: the owner's work goes on for the other callers", async () => {
    const [a, b] = [await instance(), await instance()];
    const key = `abort-${crypto.randomUUID()}`;
    const work = counted("done", 300);
    const owner = a.run(key, work.run);
    await Bun.sleep(20);
    const impatient = b.run(key, work.run, { signal: AbortSignal.timeout(50) });
    const patient = b.run(key, work.run);
    expect(await impatient.then(() => "value", (e) => (isAppError(e, "upstream_timeout") ? "timeout" : String(e))))
      .toBe("timeout");
    expect((await patient).value).toBe("done");
    expect((await owner).role).toBe("owner");
    expect(work.runs).toBe(1);
  });

  test("work whose callers all left fails there without an outcome: a waiter on another instance takes it over", async () => {
    const [a, b] = [await instance(), await instance()];
    const key = `abandoned-${crypto.randomUUID()}`;
    const leaving = new AbortController();
    // The owner's work stops once its caller left (as a generation does), failing as cancelled work fails.
    const abandoned = async (): Promise<string> => {
      await Bun.sleep(200);
      throw new AppError("upstream_timeout", "Every caller left");
    };
    const owner = a.run(key, abandoned, { signal: leaving.signal }).catch((e) => e.code);
    await Bun.sleep(20);
    const taker = counted("taken over", 10);
    const waiter = b.run(key, taker.run);
    await Bun.sleep(50);
    leaving.abort();
    expect(await owner).toBe("upstream_timeout");
    expect(await waiter).toEqual({ value: "taken over", role: "owner" });
    expect(taker.runs).toBe(1);
  });

  test("an instance whose callers all gave up stops waiting: it does not take over a dead lease for nobody", async () => {
    const flight = await instance(300);
    const key = `gone-${crypto.randomUUID()}`;
    await admin.set(`${prefix}flight:lease:${key}`, "dead-instance:token", "PX", 300);
    const work = counted("unwanted", 10);
    const given = await flight.run(key, work.run, { signal: AbortSignal.timeout(50) }).catch((e) => e.code);
    expect(given).toBe("upstream_timeout");
    await Bun.sleep(600);
    expect(work.runs).toBe(0);
    expect(await admin.exists(`${prefix}flight:lease:${key}`)).toBe(0);
  });

  test("Redis unreachable: the work runs here, still shared within the process", async () => {
    const flight = await instance(5_000, "redis://127.0.0.1:1");
    const work = counted("local", 50);
    const key = `down-${crypto.randomUUID()}`;
    const results = await Promise.all([flight.run(key, work.run), flight.run(key, work.run)]);
    expect(work.runs).toBe(1);
    expect(results.map((r) => r.role)).toEqual(["owner", "local"]);
  });
});
