/** @module Tests of fair-line.ts: fair order of waiting calls, the deadline guard and refusal at once. */
import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";
import { createFairClock } from "../../../../src/adapters/llm/budget/fair-share.ts";
import type { Claim, Waiter } from "../../../../src/adapters/llm/budget/admission.ts";
import { createFairLine } from "../../../../src/adapters/llm/budget/fair-line.ts";
import { StalePlanError } from "../../../../src/adapters/llm/budget/reservation.ts";
import { isAppError } from "../../../../src/domain/errors.ts";

/** A line on a hand-moved clock: sleeping advances the clock. */
function lineOn(tokensPerWindow: number) {
  let clock = 0;
  const now = () => clock;
  const store = createMemoryBudgetStore({
    limits: { tokensPerWindow, requestsPerWindow: 1000 },
    windowMs: 60_000,
    now,
  });
  const claims = new Map<number, Claim>();
  const line = createFairLine({
    store,
    claims,
    clock: createFairClock(),
    now,
    sleep: async (ms) => void (clock += ms),
    observer: undefined,
  });
  const call = (seq: number, tokens: number, extra: Partial<Waiter> = {}) =>
    new Promise<number>((resolve, reject) =>
      line.enqueue({
        seq,
        tokens,
        deadline: 600_000,
        tokensAfter: 0,
        optional: false,
        part: false,
        tag: tokens,
        since: now(),
        resolve: () => resolve(now()),
        reject,
        ...extra,
      })
    );
  return { line, claims, call, store, now };
}

describe("createFairLine()", () => {
  test("admits the lowest tag first, and a call that fits now ahead of one waiting for the refill", async () => {
    const { call, store } = lineOn(6000);
    await store.take(5000);
    const order: string[] = [];
    await Promise.all([
      call(0, 4000, { tag: 1 }).then(() => order.push("big")),
      call(1, 1000, { tag: 2 }).then(() => order.push("small")),
    ]);
    expect(order).toEqual(["small", "big"]);
  });

  test("a call alone in line costs one call to the store: its take, judged on what the take found", async () => {
    const { call, store, claims } = lineOn(6000);
    const calls: string[] = [];
    for (const name of ["take", "takeAndLook", "give", "observe", "peek", "settle"] as const) {
      const original = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
      (store as unknown as Record<string, unknown>)[name] = (
        ...args: unknown[]
      ) => (calls.push(name), original(...args));
    }
    expect(await call(0, 1000)).toBe(0);
    expect(calls).toEqual(["takeAndLook"]);
    // Alone and able to take, but its plan is stale: refused on what its take found, and the tokens given back.
    claims.set(1, { held: 1000, firm: 1000, served: 0, last: 0, waitedMs: 0, planTpm: 60_000 });
    calls.length = 0;
    expect(await call(1, 1000, { part: true }).catch((e) => e)).toBeInstanceOf(StalePlanError);
    expect(calls).toEqual(["takeAndLook", "give"]);
    expect((await store.peek()).tokens).toBe(5000);
  });

  test("refuses at once a call that cannot be served after those due before it", async () => {
    const { call, store, now } = lineOn(6000);
    await store.take(6000);
    void call(0, 3000, { deadline: 40_000 }).catch(() => undefined);
    const error = await call(1, 3000, { deadline: 45_000 }).catch((e) => e);
    expect(isAppError(error, "overloaded")).toBe(true);
    expect(now()).toBeLessThan(1000);
  });

  test("tells a part of a plan made on another token limit that the plan is stale, once", async () => {
    const { call, claims, line } = lineOn(6000);
    claims.set(0, { held: 1000, firm: 1000, served: 0, last: 0, waitedMs: 0, planTpm: 60_000 });
    expect(await call(0, 1000, { part: true }).catch((e) => e)).toBeInstanceOf(StalePlanError);
    expect(await call(0, 1000, { part: true })).toBe(0);
    expect(line.takeStale(claims.get(0)!)).toBe(false);
  });

  test("a plan's first part squeezed out of its time is told to plan again, once; optional parts are refused", async () => {
    const { call, claims, store } = lineOn(6000);
    const claim = (): Claim => ({ held: 3000, firm: 3000, served: 0, last: 0, waitedMs: 0, planTpm: 6000 });
    claims.set(0, claim());
    claims.set(1, claim());
    await store.take(6000);
    // 3,000 tokens refill in 30 s: none of these can start by its deadline of 20 s.
    const squeezed = { part: true, deadline: 20_000 };
    expect(await call(0, 3000, squeezed).catch((e) => e)).toBeInstanceOf(StalePlanError);
    expect(isAppError(await call(0, 3000, squeezed).catch((e) => e), "overloaded")).toBe(true);
    expect(isAppError(await call(1, 3000, { ...squeezed, optional: true }).catch((e) => e), "overloaded")).toBe(true);
  });
});
