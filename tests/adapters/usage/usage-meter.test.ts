/** @module Tests of the usage meter: quotas held before the work, the ledger after, UTC periods, outages. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteUsageStore } from "../../../src/adapters/usage/sqlite-usage-store.ts";
import { createUsageMeter } from "../../../src/adapters/usage/usage-meter.ts";
import type { AppError } from "../../../src/domain/errors.ts";
import type { KeyIdentity } from "../../../src/domain/ports.ts";
import type { Quota } from "../../../src/domain/usage/quota.ts";
import type { AnsweredRequest, UsageStore } from "../../../src/domain/usage/meter.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-usage-meter-"));

/** A SQLite usage store in `dir` that refuses every hold and write while set down (reads still work). */
function flakyStore(file: string) {
  const real = createSqliteUsageStore({ path: join(dir, file) });
  let down = false;
  const flaky: UsageStore = {
    hold: (request) => down ? Promise.reject(new Error("down")) : real.hold(request),
    write: (entries) => down ? Promise.reject(new Error("down")) : real.write(entries),
    read: (periods, now) => real.read(periods, now),
    close: () => real.close(),
  };
  return { real, flaky, setDown: (value: boolean) => (down = value) };
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const Q = (limit: number, unit: Quota["unit"], period: Quota["period"]): Quota => ({ limit, unit, period });

/** A meter on a fresh SQLite file, with a clock the test moves; `quotas` for every caller. */
function meterWith(quotas: Quota[], options: { store?: UsageStore; at?: number; flushMs?: number } = {}) {
  const clock = { now: options.at ?? Date.UTC(2026, 10, 14, 12) };
  const store = options.store ??
    createSqliteUsageStore({ path: join(dir, `usage-${++files}.sqlite`), now: () => clock.now });
  const warnings: string[] = [];
  const answered: number[] = [];
  const meter = createUsageMeter({
    store,
    quotasFor: () => quotas,
    defaultTimeoutMs: 120_000,
    now: () => clock.now,
    flushMs: options.flushMs ?? 60_000,
    log: { warn: (event) => warnings.push(event), info: () => {} },
    observe: { answered: (minutes) => answered.push(minutes) },
  });
  return { meter, store, clock, warnings, answered };
}

const caller: KeyIdentity = { id: "key_meter", name: "meter" };
const answer = (minutes: number, more: Partial<AnsweredRequest> = {}): AnsweredRequest => ({
  cache: "miss",
  answer: { videoSeconds: minutes * 60 },
  ...more,
});

async function counts(store: UsageStore, period: string, now: number, keyId = caller.id) {
  return (await store.read([period], now)).find((row) => row.keyId === keyId);
}

describe("createUsageMeter()", () => {
  test("an answer is charged its requests, cache hit, minutes, tokens and speech seconds in its day and month", async () => {
    const { meter, store, clock, answered } = meterWith([]);
    const first = await meter.begin(caller);
    expect(first.refusal).toBeUndefined();
    expect(first.quota).toBeUndefined();
    first.answered(answer(5, { spent: { inputTokens: 1200, outputTokens: 90, audioSeconds: 316 } }));
    const second = await meter.begin(caller);
    second.answered(answer(5, { cache: "hit" }));
    second.answered(answer(5));
    await meter.flush();
    for (const period of ["2026-11-14", "2026-11"]) {
      expect((await counts(store, period, clock.now))?.counts).toEqual({
        requests: 2,
        cacheHits: 1,
        minutes: 10,
        inputTokens: 1200,
        outputTokens: 90,
        sttSeconds: 316,
        refused: {},
      });
    }
    expect(answered).toEqual([5, 5]);
  });

  test("10min/day: two answers about a 5-minute video leave 5, then 0, then the quota is refused until midnight", async () => {
    const { meter, store, clock } = meterWith([Q(10, "min", "day")], { at: Date.UTC(2026, 10, 14, 23, 59, 30) });
    for (const left of [5, 0]) {
      const request = await meter.begin(caller);
      expect(request.quota?.remaining).toBe(left + 5);
      await request.admit!(5);
      request.answered(answer(5));
      expect(request.quota).toEqual({
        quota: Q(10, "min", "day"),
        remaining: left,
        resetAt: Date.UTC(2026, 10, 15),
        resetSeconds: 30,
      });
    }
    const refused = await meter.begin(caller);
    expect(refused.refusal?.code).toBe("quota_exceeded");
    expect(refused.refusal?.retryAfterSeconds).toBe(30);
    expect(refused.refusal?.message).toBe(
      "This API key has spent its quota of 10 video minutes per day (UTC); it renews at 2026-11-15T00:00:00Z",
    );
    expect(refused.quota?.remaining).toBe(0);
    await meter.flush();
    const day = await counts(store, "2026-11-14", clock.now);
    expect([day?.counts.minutes, day?.counts.requests, day?.counts.refused]).toEqual([10, 2, { quota_exceeded: 1 }]);
    clock.now = Date.UTC(2026, 10, 15, 0, 0, 1);
    expect((await meter.begin(caller)).refusal).toBeUndefined();
  });

  test("a video longer than the minutes left is refused at admission and charged nothing", async () => {
    const { meter, store, clock } = meterWith([Q(10, "min", "day")]);
    const earlier = await meter.begin(caller);
    await earlier.admit!(7);
    earlier.answered(answer(7));
    const request = await meter.begin(caller);
    const refusal = await request.admit!(5).then(() => undefined, (error: AppError) => error);
    expect(refusal?.code).toBe("quota_exceeded");
    expect(refusal?.message).toStartWith(
      "The video is charged 5 minutes (its length, or its transcript's text at 1000 characters a minute when longer) and this API key has 3 of its 10 video minutes per day (UTC) left",
    );
    expect(refusal?.retryAfterSeconds).toBe(12 * 3600);
    request.refused("quota_exceeded");
    await meter.flush();
    const day = await counts(store, "2026-11-14", clock.now);
    expect([day?.counts.minutes, day?.counts.requests, day?.counts.refused, day?.held]).toEqual([
      7,
      1,
      { quota_exceeded: 1 },
      { min: 0, req: 0 },
    ]);
    const shorter = await meter.begin(caller);
    await shorter.admit!(3);
    expect(shorter.quota?.remaining).toBe(0);
  });

  test("a cached answer's minutes known at the start: request and minutes held in one step, and refused as one", async () => {
    const { flaky } = flakyStore(`one-step-${++files}.sqlite`);
    const holds: unknown[] = [];
    const store: UsageStore = { ...flaky, hold: (request) => (holds.push(request.amounts), flaky.hold(request)) };
    const { meter } = meterWith([Q(10, "min", "day"), Q(3, "req", "day")], { store });
    const request = await meter.begin(caller, { minutes: 4 });
    expect(holds).toEqual([{ min: 4, req: 1 }]);
    await request.admit!(4);
    expect(holds).toHaveLength(1);
    expect(request.quota?.remaining).toBe(6);
    request.answered(answer(4, { cache: "hit" }));
    const longer = await meter.begin(caller, { minutes: 7 });
    expect(longer.refusal?.code).toBe("quota_exceeded");
    expect(longer.refusal?.message).toStartWith(
      "The video is charged 7 minutes (its length, or its transcript's text at 1000 characters a minute when longer) and this API key has 6 of its 10 video minutes per day (UTC) left",
    );
    expect(holds).toHaveLength(2);
  });

  test("a failed request gives back what it held and counts only its refusal", async () => {
    const { meter, store, clock } = meterWith([Q(3, "req", "day"), Q(10, "min", "day")]);
    const request = await meter.begin(caller);
    await request.admit!(5);
    // The quota closest to spent is named: half the minutes are held, a third of the requests.
    expect(request.quota?.quota).toEqual(Q(10, "min", "day"));
    expect(request.quota?.remaining).toBe(5);
    request.refused("video_unavailable");
    expect(request.quota?.remaining).toBe(request.quota?.quota.limit);
    request.answered(answer(5));
    await meter.flush();
    const day = await counts(store, "2026-11-14", clock.now);
    expect([day?.counts.requests, day?.counts.minutes, day?.counts.refused]).toEqual([0, 0, { video_unavailable: 1 }]);
  });

  test("a failure gives its hold back in the store at once (no flush): a retry right after is admitted", async () => {
    const { meter, store, clock } = meterWith([Q(8, "min", "day")]);
    const failed = await meter.begin(caller);
    await failed.admit!(5);
    failed.refused("upstream_error");
    const day = await counts(store, "2026-11-14", clock.now);
    expect(day?.held ?? { min: 0, req: 0 }).toEqual({ min: 0, req: 0 });
    const retry = await meter.begin(caller);
    expect(await retry.admit!(5)).toBeUndefined();
  });

  test("refused because other requests in flight hold the quota: Retry-After is when their holds lapse", async () => {
    const { meter } = meterWith([Q(8, "min", "day")]);
    const inFlight = await meter.begin(caller, { timeoutMs: 30_000 });
    await inFlight.admit!(5);
    const second = await meter.begin(caller);
    const refusal = await second.admit!(5).then(() => undefined, (error: AppError) => error);
    expect(refusal?.code).toBe("quota_exceeded");
    // The first hold lapses 30 s (its time limit) plus 60 s (the grace) after it began; not at midnight.
    expect(refusal?.retryAfterSeconds).toBe(90);
    expect(refusal?.message).toContain("Requests in flight of this API key hold the rest of its quota");
  });

  test("3req/day: the fourth request is refused; a new month's quota starts afresh on the 1st", async () => {
    const { meter, clock } = meterWith([Q(3, "req", "day"), Q(3, "req", "month")], { at: Date.UTC(2026, 11, 31, 23) });
    for (let i = 0; i < 3; i++) (await meter.begin(caller)).answered(answer(1));
    const fourth = await meter.begin(caller);
    expect(fourth.refusal?.message).toContain("3 requests per month (UTC); it renews at 2027-01-01T00:00:00Z");
    expect(fourth.refusal?.retryAfterSeconds).toBe(3600);
    clock.now = Date.UTC(2027, 0, 1, 0, 0, 0);
    expect((await meter.begin(caller)).refusal).toBeUndefined();
  });

  test("two meters on one file (two processes) share 3req/day exactly under 50 concurrent requests", async () => {
    const path = join(dir, "shared.sqlite");
    // The stores' clock is the meters': holds of a fake day are not lapsed by the real one when the file opens.
    const now = () => Date.UTC(2026, 10, 14, 12);
    const a = meterWith([Q(3, "req", "day")], { store: createSqliteUsageStore({ path, now }) });
    const b = meterWith([Q(3, "req", "day")], { store: createSqliteUsageStore({ path, now }) });
    const begun = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).meter.begin(caller)));
    expect(begun.filter((request) => !request.refusal)).toHaveLength(3);
  });

  test("entries are written behind, within the flush interval, without being asked", async () => {
    const { meter, store, clock } = meterWith([], { flushMs: 20 });
    (await meter.begin(caller)).answered(answer(2));
    expect(await counts(store, "2026-11", clock.now)).toBeUndefined();
    await Bun.sleep(100);
    expect((await counts(store, "2026-11", clock.now))?.counts.minutes).toBe(2);
    meter.refuse(caller, "rate_limited");
    await meter.close();
  });

  test("store unreachable: quotas are enforced on what this meter knows, and counts written when it is back", async () => {
    const { real, flaky, setDown } = flakyStore("flaky.sqlite");
    const { meter, clock, warnings } = meterWith([Q(10, "min", "day")], { store: flaky });
    const known = await meter.begin(caller);
    await known.admit!(6);
    known.answered(answer(6));
    setDown(true);
    const during = await meter.begin(caller);
    expect(during.refusal).toBeUndefined();
    await expect(during.admit!(5)).rejects.toMatchObject({ code: "quota_exceeded" });
    await during.admit!(4);
    during.answered(answer(4));
    expect((await meter.begin(caller)).refusal?.code).toBe("quota_exceeded");
    await meter.flush();
    expect(warnings).toEqual(["usage_store_unavailable", "usage_write_failed"]);
    setDown(false);
    await meter.flush();
    const day = await counts(real, "2026-11-14", clock.now);
    expect([day?.counts.minutes, day?.counts.requests, day?.counts.refused]).toEqual([10, 2, { quota_exceeded: 1 }]);
  });

  test("a store failing keys with quotas is told (never silently open), and told again once a hold or write works", async () => {
    const { flaky, setDown } = flakyStore("told.sqlite");
    const told: boolean[] = [];
    const free: KeyIdentity = { id: "key_free", name: "free" };
    const meter = createUsageMeter({
      store: flaky,
      quotasFor: (who) => who.id === caller.id ? [Q(10, "min", "day")] : [],
      defaultTimeoutMs: 120_000,
      flushMs: 60_000,
      onAvailability: (available) => told.push(available),
    });
    setDown(true);
    // No caller with quotas yet: a failed write of a free key's counts fails no promise.
    (await meter.begin(free)).answered(answer(3));
    await meter.flush();
    expect(told).toEqual([]);
    const held = await meter.begin(caller);
    await held.admit!(2);
    held.answered(answer(2));
    await meter.flush();
    expect(told).toEqual([false]);
    setDown(false);
    await meter.flush();
    expect(told).toEqual([false, true]);
    await meter.close();
  });

  test("once admitted to its minutes, a request its caller gave up is charged; a failure or a 504 gives them back", async () => {
    const { meter, store, clock } = meterWith([Q(10, "min", "day")]);
    const hungUp = await meter.begin(caller);
    await hungUp.admit!(5);
    hungUp.spend({ inputTokens: 700, outputTokens: 0, audioSeconds: 0 });
    hungUp.refused(); // the caller went away mid-answer: no code
    hungUp.spend({ inputTokens: 0, outputTokens: 40, audioSeconds: 0 }); // told after, still its key's
    const timedOut = await meter.begin(caller);
    await timedOut.admit!(3);
    timedOut.refused("upstream_timeout", true); // its caller cancelled: charged
    const failed = await meter.begin(caller);
    await failed.admit!(2);
    failed.refused("upstream_error");
    const serviceDeadline = await meter.begin(caller);
    await serviceDeadline.admit!(1);
    serviceDeadline.refused("upstream_timeout"); // the service's own time limit ran out (504): given back
    const early = await meter.begin(caller);
    early.refused(); // before its minutes were held: free, as before
    await meter.flush();
    expect((await counts(store, "2026-11-14", clock.now))?.counts).toMatchObject({
      requests: 2,
      minutes: 8,
      inputTokens: 700,
      outputTokens: 40,
      refused: { upstream_error: 1, upstream_timeout: 1 },
    });
    expect((await meter.begin(caller)).quota?.remaining).toBe(2);
  });

  test("under a quota of requests only, a request whose own work started is charged when its caller gives it up", async () => {
    const { meter, store, clock } = meterWith([Q(5, "req", "day")]);
    const started = await meter.begin(caller);
    started.working(5);
    started.refused();
    const notYet = await meter.begin(caller);
    notYet.refused("upstream_timeout"); // its work never asked upstream: given back
    await meter.flush();
    expect((await counts(store, "2026-11-14", clock.now))?.counts).toMatchObject({ requests: 1, minutes: 5 });
    expect((await meter.begin(caller)).quota?.remaining).toBe(3);
  });

  test("a failure on what the uploader controls (no speech heard) is charged once committed, free before", async () => {
    const { meter, store, clock } = meterWith([Q(10, "min", "day")]);
    const transcribed = await meter.begin(caller);
    await transcribed.admit!(2);
    transcribed.working(2);
    transcribed.spend({ inputTokens: 0, outputTokens: 0, audioSeconds: 118 });
    transcribed.chargeFailure!();
    transcribed.refused("transcript_unavailable");
    // The same outcome read from the cache: its work never asked upstream, so nothing is charged.
    const fromCache = await meter.begin(caller);
    fromCache.chargeFailure!();
    fromCache.refused("transcript_unavailable");
    await meter.flush();
    expect((await counts(store, "2026-11-14", clock.now))?.counts).toMatchObject({
      requests: 1,
      minutes: 2,
      sttSeconds: 118,
      refused: {},
    });
    expect((await meter.begin(caller)).quota?.remaining).toBe(8);
  });

  test("a request that has ended admits nothing: its work run on for others is refused, never passed on unheld", async () => {
    const { meter, store, clock } = meterWith([Q(2, "req", "day"), Q(10, "min", "day")]);
    const left = await meter.begin(caller);
    left.refused(); // its caller left before the video's length was known: free
    await expect(left.admit!(5)).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(() => left.working(5)).toThrow(/has ended/);
    const answered = await meter.begin(caller);
    answered.working(5);
    answered.answered(answer(5));
    expect(() => answered.working(5)).not.toThrow(); // committed before it ended: told again, nothing new
    await meter.flush();
    expect((await counts(store, "2026-11-14", clock.now))?.counts).toMatchObject({ requests: 1, minutes: 5 });
  });

  test("tokens told by spend are not counted again from the answer", async () => {
    const { meter, store, clock } = meterWith([]);
    const request = await meter.begin(caller);
    const spent = { inputTokens: 100, outputTokens: 10, audioSeconds: 30 };
    request.spend(spent);
    request.answered(answer(5, { spent }));
    await meter.flush();
    expect((await counts(store, "2026-11-14", clock.now))?.counts).toMatchObject({
      requests: 1,
      inputTokens: 100,
      outputTokens: 10,
      sttSeconds: 30,
    });
  });
});
