/** @module Tests of relaying a shared work's events to other instances through Redis Streams. */
import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import type { FlightEvent, FlightEvents, SharedFlight } from "../../../src/domain/ports.ts";
import {
  createRedisConnection,
  type RedisConnection,
  type RedisLog,
} from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisSharedFlight, type RedisFlightOptions } from "../../../src/adapters/redis/redis-shared-flight.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../../support/redis-server.ts";

const url = testRedisUrl();
const prefix = uniquePrefix("relay");
const quiet: RedisLog = { warn() {}, info() {} };
const opened: RedisConnection[] = [];
const admin = new Redis(url);

/** One "instance": its own connection (and subscriber) and its own flight. */
async function instance(options: Partial<RedisFlightOptions> = {}, target = url): Promise<SharedFlight> {
  const connection = createRedisConnection({ url: target, prefix, log: quiet, commandTimeoutMs: 500 });
  opened.push(connection);
  if (target === url) expect(await connection.ready(3_000)).toBe(true);
  const flight = createRedisSharedFlight({ connection, leaseMs: 5_000, relayPollMs: 10, ...options });
  await Bun.sleep(50); // lets the subscriber connect
  return flight;
}

afterAll(async () => {
  for (const connection of opened) await connection.close();
  await dropPrefix(admin, prefix);
  admin.disconnect();
});

/** A work's event hooks as the use case gives them: what the work emits goes to the publisher, if any. */
function hooks(listening: boolean) {
  let send: ((event: FlightEvent) => void) | undefined;
  const heard: FlightEvent[] = [];
  const events: FlightEvents = {
    publish: (sink) => ((send = sink), () => (send = undefined)),
    listen: listening ? (event) => heard.push(event) : undefined,
  };
  return {
    events,
    heard,
    emit: (event: FlightEvent) => send?.(event),
    get publishing() {
      return send !== undefined;
    },
  };
}

const delta = (text: string): FlightEvent => ({ type: "delta", text });
const writing: FlightEvent = { type: "progress", progress: { stage: "writing" } };
const text = (events: FlightEvent[]) => events.map((e) => (e.type === "delta" ? e.text : "")).join("");

/** Puts a stream of `token` in Redis as an owner would have written it, from place `first`. */
async function writeStream(token: string, events: FlightEvent[], first = 0): Promise<void> {
  for (const [i, event] of events.entries()) {
    await admin.xadd(`${prefix}flight:events:${token}`, "*", "n", first + i, "e", JSON.stringify(event));
  }
}

describe("createRedisSharedFlight() relaying a work's events", () => {
  test("a waiter on another instance gets every event of the owner's work in order, once: those before it came, then the rest", async () => {
    const [a, b] = [await instance(), await instance()];
    const key = `relay-${crypto.randomUUID()}`;
    const owner = hooks(true);
    const pieces = Array.from({ length: 200 }, (_, i) => `piece ${i}; `);
    const work = async () => {
      owner.emit(writing);
      for (const [i, piece] of pieces.entries()) {
        owner.emit(delta(piece));
        if (i % 20 === 0) await Bun.sleep(15);
      }
      return pieces.join("");
    };
    const running = a.run(key, work, { events: owner.events });
    await Bun.sleep(60); // some events are in the stream before the waiter comes
    const waiter = hooks(true);
    const result = await b.run(key, async () => "not me", { events: waiter.events });
    expect((await running).role).toBe("owner");
    expect(result).toEqual({ value: pieces.join(""), role: "remote" });
    expect(waiter.heard).toEqual([writing, ...pieces.map(delta)]);
    expect(owner.heard).toEqual([]); // the owner's own callers read its events in process, not from Redis
  });

  test("the stream is bounded (the owner sends at most relayMaxEvents) and expires a little after the outcome", async () => {
    const [a, b] = [await instance({ relayMaxEvents: 5, leaseMs: 1_000, outcomeTtlMs: 4_000 }), await instance()];
    const key = `bound-${crypto.randomUUID()}`;
    const owner = hooks(false);
    const running = a.run(key, async () => {
      for (let i = 0; i < 8; i++) owner.emit(delta(`${i}`)), await Bun.sleep(10);
      return "01234567";
    }, { events: owner.events });
    await Bun.sleep(20);
    const waiter = hooks(true);
    expect((await b.run(key, async () => "not me", { events: waiter.events })).value).toBe("01234567");
    await running;
    expect(text(waiter.heard)).toBe("01234");
    const streams = await admin.keys(`${prefix}flight:events:*`);
    const ours = (await Promise.all(
      streams.map(async (
        k,
      ) => ((await admin.xrange(k, "-", "+")).some(([, f]) => f[3] === JSON.stringify(delta("4"))) ? k : "")),
    )).filter(Boolean);
    expect(ours).toHaveLength(1);
    expect(await admin.xlen(ours[0]!)).toBe(5);
    const ttl = await admin.pttl(ours[0]!);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  test("a stream written long before the outcome has its expiry renewed with it: the events outlive the outcome", async () => {
    const flight = await instance({ leaseMs: 200, outcomeTtlMs: 4_000 });
    const key = `renewed-${crypto.randomUUID()}`;
    const owner = hooks(false);
    // One event at the start sets the stream's expiry to 4,200 ms; the outcome comes 300 ms later with 4,000.
    await flight.run(key, async () => (owner.emit(writing), await Bun.sleep(300), "done"), { events: owner.events });
    const outcomes = await admin.keys(`${prefix}flight:outcome:*`);
    const streams = await admin.keys(`${prefix}flight:events:*`);
    const token = outcomes.map((k) => k.split(":outcome:")[1]).find((t) => streams.some((k) => k.endsWith(`:${t}`)))!;
    const [outcomeTtl, streamTtl] = [
      await admin.pttl(`${prefix}flight:outcome:${token}`),
      await admin.pttl(`${prefix}flight:events:${token}`),
    ];
    expect(outcomeTtl).toBeGreaterThan(3_500);
    expect(streamTtl).toBeGreaterThan(outcomeTtl);
  });

  test("a waiter that does not listen reads no stream; the owner still publishes for those that do", async () => {
    const [a, b] = [await instance(), await instance()];
    const key = `deaf-${crypto.randomUUID()}`;
    const owner = hooks(false);
    const running = a.run(key, async () => (owner.emit(delta("x")), await Bun.sleep(100), "x"), {
      events: owner.events,
    });
    await Bun.sleep(20);
    expect(owner.publishing).toBe(true);
    const waiter = hooks(false);
    expect((await b.run(key, async () => "not me", { events: waiter.events })).role).toBe("remote");
    expect(waiter.heard).toEqual([]);
    await running;
    expect(owner.publishing).toBe(false);
  });

  test("a stream with a gap (trimmed, or an append lost) is not followed past it: the value carries the text", async () => {
    const flight = await instance();
    const key = `gap-${crypto.randomUUID()}`;
    const holder = `gap:${crypto.randomUUID()}`;
    await admin.set(`${prefix}flight:lease:${key}`, holder, "PX", 5_000);
    await writeStream(holder, [delta("late "), delta("text")], 3);
    const waiter = hooks(true);
    const result = flight.run(key, async () => "not me", { events: waiter.events });
    await Bun.sleep(100);
    await admin.set(`${prefix}flight:outcome:${holder}`, JSON.stringify({ ok: true, value: "whole text" }));
    await admin.publish(`${prefix}flight:done`, holder);
    expect((await result).value).toBe("whole text");
    expect(waiter.heard).toEqual([]);
  });

  test("after a dead owner's deltas went out, the next owner's work reaches the waiter as progress only", async () => {
    const flight = await instance({ leaseMs: 300 });
    const key = `heir-${crypto.randomUUID()}`;
    const [dead, heir] = [`dead:${crypto.randomUUID()}`, `heir:${crypto.randomUUID()}`];
    await admin.set(`${prefix}flight:lease:${key}`, dead, "PX", 5_000);
    await writeStream(dead, [writing, delta("The dead owner's part")]);
    const waiter = hooks(true);
    const result = flight.run(key, async () => "not me", { events: waiter.events });
    await Bun.sleep(100);
    await writeStream(heir, [writing, delta("Another answer.")]);
    await admin.set(`${prefix}flight:lease:${key}`, heir, "PX", 5_000); // another instance took the lease over
    await Bun.sleep(200);
    await admin.set(`${prefix}flight:outcome:${heir}`, JSON.stringify({ ok: true, value: "Another answer." }));
    await admin.publish(`${prefix}flight:done`, heir);
    expect(await result).toEqual({ value: "Another answer.", role: "remote" });
    expect(waiter.heard).toEqual([writing, delta("The dead owner's part"), writing]);
  });

  test("a waiter that takes a dead owner's lease over works under its own token, without the dead owner's events; followed by nobody, it writes no stream", async () => {
    const flight = await instance({ leaseMs: 300 });
    const key = `takeover-${crypto.randomUUID()}`;
    const dead = `dead:${crypto.randomUUID()}`;
    await admin.set(`${prefix}flight:lease:${key}`, dead, "PX", 300);
    await writeStream(dead, [writing, delta("partial")]);
    const me = hooks(true);
    const result = await flight.run(key, async () => (me.emit(delta("fresh")), "fresh"), { events: me.events });
    expect(result).toEqual({ value: "fresh", role: "owner" });
    expect(me.heard).toEqual([writing, delta("partial")]);
    const mine = (await admin.keys(`${prefix}flight:events:*`)).filter((k) =>
      !k.includes(dead) && !k.includes("heir:") && !k.includes("gap:")
    );
    const entries = (await Promise.all(mine.map((k) => admin.xrange(k, "-", "+")))).filter((e) =>
      e.some(([, f]) => f[3] === JSON.stringify(delta("fresh")))
    );
    expect(entries).toHaveLength(0);
  });

  test("an owner nobody follows from elsewhere writes no stream; one asked to, writes the events so far, then the rest", async () => {
    const [owner, waiterSide] = [await instance(), await instance()];
    const alone = hooks(false);
    const key = `alone-${crypto.randomUUID()}`;
    const done = owner.run(key, async () => {
      alone.emit(writing);
      alone.emit(delta("nobody reads this"));
      return "alone";
    }, { events: alone.events });
    expect(await done).toEqual({ value: "alone", role: "owner" });
    const streams = await admin.keys(`${prefix}flight:events:*`);
    const written = await Promise.all(streams.map((k) => admin.xrange(k, "-", "+")));
    expect(written.flat().some(([, f]) => f[3] === JSON.stringify(delta("nobody reads this")))).toBe(false);

    const followed = hooks(false);
    const shared = `followed-${crypto.randomUUID()}`;
    let finish!: () => void;
    const running = owner.run(shared, async () => {
      followed.emit(writing);
      followed.emit(delta("before "));
      await new Promise<void>((resolve) => (finish = resolve));
      followed.emit(delta("after"));
      return "followed";
    }, { events: followed.events });
    while (!followed.publishing) await Bun.sleep(5);
    const waiter = hooks(true);
    const waited = waiterSide.run(shared, async () => "never", { events: waiter.events });
    while (!waiter.heard.some((e) => e.type === "delta")) await Bun.sleep(5);
    finish();
    expect(await running).toEqual({ value: "followed", role: "owner" });
    expect(await waited).toEqual({ value: "followed", role: "remote" });
    expect(waiter.heard).toEqual([writing, delta("before "), delta("after")]);
  });

  test("with an outcomes Redis, the outcome and the events go there with TTLs; the state Redis keeps only the lease", async () => {
    const outcomesUrl = url.replace(/\/\d*$/, "") + "/1"; // another keyspace of the same server stands for the caches' Redis
    const outcomesAdmin = new Redis(outcomesUrl);
    const apart = `${prefix}apart:`;
    try {
      const separate = async () => {
        const connection = createRedisConnection({ url, prefix: apart, log: quiet, commandTimeoutMs: 500 });
        const outcomes = createRedisConnection({ url: outcomesUrl, prefix: apart, log: quiet, commandTimeoutMs: 500 });
        opened.push(connection, outcomes);
        expect(await connection.ready(3_000)).toBe(true);
        expect(await outcomes.ready(3_000)).toBe(true);
        const flight = createRedisSharedFlight({ connection, outcomes, leaseMs: 5_000, relayPollMs: 10 });
        await Bun.sleep(50);
        return flight;
      };
      const [a, b] = [await separate(), await separate()];
      const key = `apart-${crypto.randomUUID()}`;
      const owner = hooks(false);
      const big = "x".repeat(200_000);
      let leaseSeen: string | null = null;
      const running = a.run(key, async () => {
        owner.emit(writing);
        await Bun.sleep(150);
        leaseSeen = await admin.get(`${apart}flight:lease:${key}`);
        owner.emit(delta("a"));
        return big;
      }, { events: owner.events });
      await Bun.sleep(40);
      const waiter = hooks(true);
      const result = await b.run(key, async () => "not me", { events: waiter.events });
      expect((await running).role).toBe("owner");
      expect(result).toEqual({ value: big, role: "remote" });
      expect(waiter.heard).toEqual([writing, delta("a")]);
      expect(leaseSeen).not.toBeNull();
      const stateKeys = (await admin.keys(`${apart}flight:*`)).filter((k) => !k.includes(":lease:"));
      expect(stateKeys.filter((k) => k.includes(":outcome:") || k.includes(":events:"))).toEqual([]);
      const kept = await outcomesAdmin.keys(`${apart}flight:*`);
      expect(kept.some((k) => k.includes(":outcome:"))).toBe(true);
      expect(kept.some((k) => k.includes(":events:"))).toBe(true);
      for (const k of kept) expect([k, (await outcomesAdmin.pttl(k)) > 0]).toEqual([k, true]);
      await dropPrefix(outcomesAdmin, apart);
    } finally {
      outcomesAdmin.disconnect();
    }
  });

  test("Redis unreachable: the work runs here with its events unrelayed, and the call does not fail", async () => {
    const flight = await instance({}, "redis://127.0.0.1:1");
    const me = hooks(true);
    const result = await flight.run(`down-${crypto.randomUUID()}`, async () => (me.emit(delta("local")), "local"), {
      events: me.events,
    });
    expect(result).toEqual({ value: "local", role: "owner" });
    expect(me.heard).toEqual([]);
  });
});
