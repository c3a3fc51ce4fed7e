import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";
import { createLlmBudget } from "../../../../src/adapters/llm/budget/llm-budget.ts";
import { isAppError } from "../../../../src/domain/errors.ts";

/** A budget on a hand-moved clock: sleeping advances the clock instead of waiting. */
function budgetOn(tokensPerWindow: number) {
  let clock = 0;
  const now = () => clock;
  const store = createMemoryBudgetStore({ limits: { tokensPerWindow, requestsPerWindow: 1000 }, windowMs: 60_000, now });
  const sleep = async (ms: number) => {
    clock += ms;
    await Promise.resolve();
  };
  const seen: { queued: number[]; waited: number[] } = { queued: [], waited: [] };
  const observer = { remaining() {}, queued: (n: number) => seen.queued.push(n), waited: (s: number) => seen.waited.push(s) };
  return { budget: createLlmBudget({ store, now, sleep, observer }), now, seen };
}

describe("createLlmBudget()", () => {
  test("admits at once while the window has the tokens", async () => {
    const { budget, now } = budgetOn(6000);
    const request = budget.open(120_000);
    await request.admit(3000);
    await request.admit(3000);
    expect(now()).toBe(0);
  });

  test("makes a call wait for the refill when its turn needs it", async () => {
    const { budget, now, seen } = budgetOn(6000);
    const request = budget.open(120_000);
    await request.admit(6000);
    await request.admit(1000);
    expect(now()).toBeGreaterThanOrEqual(10_000);
    expect(seen.waited.at(-1)).toBeGreaterThanOrEqual(10);
  });

  test("serves requests first come, first served: a later request cannot take what an earlier one holds", async () => {
    const { budget } = budgetOn(6000);
    const first = budget.open(120_000);
    const second = budget.open(120_000);
    first.hold(5000);
    await first.admit(2000);
    const order: string[] = [];
    const late = second.admit(2000).then(() => order.push("second"));
    const early = first.admit(3000).then(() => order.push("first"));
    await Promise.all([late, early]);
    expect(order).toEqual(["first", "second"]);
  });

  test("refuses at once with overloaded and a Retry-After when the turn comes after the deadline", async () => {
    const { budget, now } = budgetOn(6000);
    const request = budget.open(5_000);
    await request.admit(6000);
    const error = await request.admit(6000).catch((e) => e);
    expect(isAppError(error, "overloaded")).toBe(true);
    expect(error.retryAfterSeconds).toBe(60);
    expect(now()).toBe(0);
  });

  test("tells a planner what it can have before a time, less what earlier requests hold", async () => {
    const { budget } = budgetOn(6000);
    const first = budget.open(120_000);
    const second = budget.open(120_000);
    first.hold(4000);
    expect((await first.available(30_000)).tokens).toBe(9000);
    expect((await second.available(30_000)).tokens).toBe(5000);
    first.close();
    expect((await second.available(30_000)).tokens).toBe(9000);
  });

  test("a waiting call whose request is cancelled leaves the line", async () => {
    const { budget } = budgetOn(6000);
    const request = budget.open(600_000);
    await request.admit(6000);
    const cancel = new AbortController();
    cancel.abort(new Error("caller left"));
    const error = await request.admit(6000, cancel.signal).catch((e) => e);
    expect(error.message).toBe("caller left");
    expect(budget.queueLength).toBe(0);
  });
});

describe("createLlmBudget() before the provider has answered", () => {
  test("the first request plans on the guess; a later one its guess would cut down plans once that answer taught the real limits", async () => {
    // A clock that never moves and sleeps that never end: only the first answer can let the second request plan.
    const store = createMemoryBudgetStore({ limits: { tokensPerWindow: 6000, requestsPerWindow: 30 }, windowMs: 60_000, now: () => 0 });
    const budget = createLlmBudget({ store, now: () => 0, sleep: () => new Promise(() => {}) });
    const first = budget.open(120_000);
    const second = budget.open(120_000);
    const seenFirst = await first.plan(60_000, ({ view }) => ({ hold: 5000, value: view.limits.tokensPerWindow }));
    let secondPlanned = false;
    const planned = second.plan(60_000, ({ view }) => {
      secondPlanned = view.limits.tokensPerWindow > 6000;
      return { hold: 1000, value: view.limits.tokensPerWindow, reduced: view.limits.tokensPerWindow === 6000 };
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(secondPlanned).toBe(false);
    await first.settle(5000, 5000, { tokenLimit: 300_000, tokensRemaining: 295_000 });
    expect([seenFirst, await planned]).toEqual([6000, 300_000]);
  });

  test("a later request whose plan the guess does not cut down goes ahead at once", async () => {
    const store = createMemoryBudgetStore({ limits: { tokensPerWindow: 6000, requestsPerWindow: 30 }, windowMs: 60_000, now: () => 0 });
    const budget = createLlmBudget({ store, now: () => 0, sleep: () => new Promise(() => {}) });
    await budget.open(120_000).plan(60_000, () => ({ hold: 2000, value: 1 }));
    expect(await budget.open(120_000).plan(60_000, () => ({ hold: 1000, value: 2 }))).toBe(2);
  });
});

describe("createLlmBudget() on answers stating no limits", () => {
  test("one headerless answer leaves the limits as they were; several in a row unpace", async () => {
    const store = createMemoryBudgetStore({ limits: { tokensPerWindow: 6000, requestsPerWindow: 30 }, windowMs: 60_000, now: () => 0 });
    const budget = createLlmBudget({ store, now: () => 0 });
    const request = budget.open(120_000);
    await request.settle(1000, 1000, {});
    expect((await store.peek()).limits.tokensPerWindow).toBe(6000);
    await request.settle(1000, 1000, {});
    await request.settle(1000, 1000, {});
    expect((await store.peek()).limits.tokensPerWindow).toBeGreaterThan(1e9);
  });
});
