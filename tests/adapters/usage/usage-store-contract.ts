/** @module The behaviour every usage store must have (SQLite file, Redis), run against each by its test file. */
import { expect, test } from "bun:test";
import type { Quota } from "../../../src/domain/usage/quota.ts";
import type { HoldRequest, UsageStore } from "../../../src/domain/usage/meter.ts";

const DAY: Quota = { limit: 10, unit: "min", period: "day" };
const REQS: Quota = { limit: 3, unit: "req", period: "day" };
const MONTH: Quota = { limit: 25, unit: "min", period: "month" };
const NOW = Date.UTC(2026, 10, 14, 12);
const PERIODS = { day: "2026-11-14", month: "2026-11" };

let ids = 0;
/** A hold request of a fresh key unless `keyId` is given. */
export function holdOf(more: Partial<HoldRequest> = {}): HoldRequest {
  return {
    keyId: `key_${++ids}_${crypto.randomUUID().slice(0, 6)}`,
    periods: PERIODS,
    holdId: crypto.randomUUID(),
    quotas: [DAY],
    need: { min: 1, req: 1 },
    amounts: { min: 0, req: 1 },
    expiresAt: NOW + 60_000,
    now: NOW,
    ...more,
  };
}

/**
 * The store contract: holds are granted only while every quota has room, count until their entry replaces them
 * (or they lapse), and entries add to both periods.
 *
 * @param open a fresh store sharing its data with every other store `open` gives (two processes, two instances)
 */
export function usageStoreContract(name: string, open: () => UsageStore | Promise<UsageStore>): void {
  test(`${name}: a hold counts against the quota until its entry replaces it with the answer's minutes`, async () => {
    const store = await open();
    const first = holdOf({ need: { min: 6, req: 0 }, amounts: { min: 6, req: 0 } });
    expect(await store.hold(first)).toEqual({ granted: true, used: [0], held: [0] });
    const second = holdOf({ keyId: first.keyId, need: { min: 5, req: 0 }, amounts: { min: 5, req: 0 } });
    // Refused while another request's hold fills the quota: told when that hold lapses.
    expect(await store.hold(second)).toEqual({ granted: false, used: [6], held: [6], heldUntil: first.expiresAt });
    await store.write([{
      keyId: first.keyId,
      periods: PERIODS,
      holds: [first.holdId],
      counts: { requests: 1, minutes: 6 },
    }]);
    expect(await store.hold(second)).toEqual({ granted: false, used: [6], held: [0], heldUntil: 0 });
    expect(await store.hold({ ...second, need: { min: 4, req: 0 }, amounts: { min: 4, req: 0 } }))
      .toEqual({ granted: true, used: [6], held: [0] });
  });

  test(`${name}: a refusal's entry gives the hold back and counts only the refusal`, async () => {
    const store = await open();
    const hold = holdOf({ quotas: [REQS], need: { min: 0, req: 3 }, amounts: { min: 0, req: 3 } });
    expect((await store.hold(hold)).granted).toBe(true);
    expect((await store.hold({ ...hold, holdId: "other" })).used).toEqual([3]);
    await store.write([{ keyId: hold.keyId, periods: PERIODS, holds: [hold.holdId], counts: { refused: { x: 1 } } }]);
    expect(await store.hold({ ...hold, holdId: "other" })).toEqual({ granted: true, used: [0], held: [0] });
    const rows = await store.read([PERIODS.day], NOW);
    const row = rows.find((r) => r.keyId === hold.keyId)!;
    expect(row.counts.requests).toBe(0);
    expect(row.counts.refused).toEqual({ x: 1 });
    expect(row.held).toEqual({ min: 0, req: 3 });
  });

  test(`${name}: a hold grows when asked again under the same id, and lapses at its expiry`, async () => {
    const store = await open();
    const hold = holdOf({ quotas: [DAY, REQS] });
    expect(await store.hold(hold)).toEqual({ granted: true, used: [0, 0], held: [0, 0] });
    const minutes = { ...hold, need: { min: 7, req: 0 }, amounts: { min: 7, req: 0 } };
    expect(await store.hold(minutes)).toEqual({ granted: true, used: [0, 1], held: [0, 1] });
    expect(await store.hold({ ...hold, holdId: "next" })).toEqual({ granted: true, used: [7, 1], held: [7, 1] });
    const later = NOW + 61_000;
    expect(await store.hold({ ...hold, holdId: "late", now: later, expiresAt: later + 1 }))
      .toEqual({ granted: true, used: [0, 0], held: [0, 0] });
  });

  test(`${name}: a check that holds nothing (minutes only) drops lapsed holds too: a dead process's hold stops counting`, async () => {
    const store = await open();
    const dead = holdOf({ need: { min: 9, req: 0 }, amounts: { min: 9, req: 0 } });
    expect((await store.hold(dead)).granted).toBe(true);
    const look = holdOf({ keyId: dead.keyId, need: { min: 5, req: 0 }, amounts: { min: 0, req: 0 } });
    expect(await store.hold(look)).toEqual({ granted: false, used: [9], held: [9], heldUntil: dead.expiresAt });
    const later = { ...look, now: dead.expiresAt + 1 };
    expect(await store.hold(later)).toEqual({ granted: true, used: [0], held: [0] });
    const row = (await store.read([PERIODS.day], later.now)).find((r) => r.keyId === dead.keyId);
    expect(row?.held ?? { min: 0, req: 0 }).toEqual({ min: 0, req: 0 });
  });

  test(`${name}: every quota must have room; the day's and the month's are counted apart`, async () => {
    const store = await open();
    const keyId = holdOf().keyId;
    const yesterday = { day: "2026-11-13", month: "2026-11" };
    await store.write([{ keyId, periods: yesterday, counts: { requests: 2, minutes: 20, cacheHits: 1 } }]);
    const today = holdOf({ keyId, quotas: [DAY, MONTH], need: { min: 6, req: 0 }, amounts: { min: 6, req: 0 } });
    expect(await store.hold(today)).toEqual({ granted: false, used: [0, 20], held: [0, 0], heldUntil: 0 });
    expect(await store.hold({ ...today, need: { min: 5, req: 0 }, amounts: { min: 5, req: 0 } }))
      .toEqual({ granted: true, used: [0, 20], held: [0, 0] });
    const rows = await store.read([yesterday.day, PERIODS.month], NOW);
    const mine = rows.filter((r) => r.keyId === keyId).sort((a, b) => a.period.localeCompare(b.period));
    expect(mine.map((r) => [r.period, r.counts.minutes, r.counts.cacheHits, r.held.min])).toEqual([
      ["2026-11", 20, 1, 5],
      ["2026-11-13", 20, 1, 0],
    ]);
  });

  test(`${name}: every count of an entry is kept, refusals by code`, async () => {
    const store = await open();
    const keyId = holdOf().keyId;
    const counts = { requests: 2, cacheHits: 1, minutes: 9, inputTokens: 1500, outputTokens: 200, sttSeconds: 61 };
    await store.write([
      { keyId, periods: PERIODS, counts },
      { keyId, periods: PERIODS, counts: { refused: { quota_exceeded: 1, video_unavailable: 1 } } },
      { keyId, periods: PERIODS, counts: { refused: { quota_exceeded: 1 } } },
    ]);
    const row = (await store.read([PERIODS.month], NOW)).find((r) => r.keyId === keyId)!;
    expect(row.counts).toEqual({ ...counts, refused: { quota_exceeded: 2, video_unavailable: 1 } });
  });

  test(`${name}: 40 concurrent holds through two stores grant exactly the quota`, async () => {
    const [a, b] = [await open(), await open()];
    const keyId = holdOf().keyId;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hold(holdOf({ keyId, quotas: [REQS] }))),
    );
    expect(results.filter((r) => r.granted)).toHaveLength(3);
  });
}
