/** @module Tests of the LLM budget: fair shares and turns, waits, deadlines and guessed limits. */
import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";
import { createLlmBudget } from "../../../../src/adapters/llm/budget/llm-budget.ts";
import { isAppError } from "../../../../src/domain/errors.ts";

/** A budget on a hand-moved clock: sleeping advances the clock instead of waiting. */
function budgetOn(tokensPerWindow: number) {
  let clock = 0;
  const now = () => clock;
  const store = createMemoryBudgetStore({
    limits: { tokensPerWindow, requestsPerWindow: 1000 },
    windowMs: 60_000,
    now,
  });
  const sleep = async (ms: number) => {
    clock += ms;
    await Promise.resolve();
  };
  const seen: { queued: number[]; waited: number[] } = { queued: [], waited: [] };
  const observer = {
    remaining() {},
    queued: (n: number) => seen.queued.push(n),
    waited: (s: number) => seen.waited.push(s),
  };
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

  test("a small call that fits now goes ahead of a long plan's next call when the long plan can afford the wait", async () => {
    const { budget, now } = budgetOn(6000);
    const long = budget.open(120_000);
    const short = budget.open(120_000);
    await long.admit(5000);
    const order: string[] = [];
    const next = long.admit(4000).then(() => order.push(`long@${now()}`));
    const small = short.admit(1000).then(() => order.push(`short@${now()}`));
    await Promise.all([next, small]);
    expect(order).toEqual(["short@0", "long@40000"]);
  });

  test("but not when the long plan's call would then miss its latest start", async () => {
    const { budget } = budgetOn(6000);
    const long = budget.open(120_000);
    const short = budget.open(120_000);
    await long.admit(5000);
    const order: string[] = [];
    const next = long.admit(4000, undefined, 31_000).then(() => order.push("long"));
    const small = short.admit(1000).then(() => order.push("short"));
    await Promise.all([next, small]);
    expect(order).toEqual(["long", "short"]);
  });

  test("a request's many calls in line do not keep a newcomer waiting behind all of them (fair queuing by request)", async () => {
    const { budget } = budgetOn(6000);
    const long = budget.open(600_000);
    const late = budget.open(600_000);
    await long.admit(6000);
    const order: string[] = [];
    const calls = [1, 2, 3].map((i) => long.admit(2000).then(() => order.push(`long${i}`)));
    await Promise.resolve();
    calls.push(late.admit(2000).then(() => order.push("late")));
    await Promise.all(calls);
    expect(order.indexOf("late")).toBeLessThanOrEqual(1);
  });

  test("one key's many requests in line do not keep another key's call waiting behind all of them (fair by key)", async () => {
    const { budget } = budgetOn(6000);
    const burst = [1, 2, 3, 4].map(() => budget.open(600_000, "key-a"));
    const other = budget.open(600_000, "key-b");
    await burst[0]!.admit(6000);
    const order: string[] = [];
    // Each of the key's requests sends one call: fair by request, each would have a tag as low as the newcomer's.
    const calls = burst.map((request, i) => request.admit(2000).then(() => order.push(`a${i}`)));
    await Promise.resolve();
    calls.push(other.admit(2000).then(() => order.push("b")));
    await Promise.all(calls);
    expect(order.indexOf("b")).toBeLessThanOrEqual(1);
  });

  test("a key's share of the window is one, however many requests it has open", async () => {
    const { budget } = budgetOn(6000);
    const burst = [1, 2, 3].map(() => budget.open(120_000, "key-a"));
    for (const request of burst) await request.plan(60_000, () => ({ hold: 4000, firm: 0, value: 1 }));
    // By request, a newcomer would get a quarter of the 12,000 the minute gives (3,000); by key, half.
    expect((await budget.open(120_000, "key-b").available(60_000)).tokens).toBe(6000);
    // With no other key holding any, the key's fourth request shares the whole minute with its three others.
    expect((await budget.open(120_000, "key-a").available(60_000)).tokens).toBe(3000);
  });

  test("a call behind others whose deadline becomes out of reach is refused at once, not when its turn comes", async () => {
    const { budget, now } = budgetOn(6000);
    const first = budget.open(600_000);
    const second = budget.open(600_000);
    await first.admit(6000);
    void first.admit(6000).catch(() => undefined);
    await Promise.resolve();
    // Alone, 3,000 tokens need 30 s: the deadline of 20 s is out of reach from the start.
    const error = await second.admit(3000, undefined, 20_000).catch((e) => e);
    expect(isAppError(error, "overloaded")).toBe(true);
    expect(now()).toBeLessThan(1_000);
  });

  test("what a refused call would have taken is no longer held against the others", async () => {
    const { budget } = budgetOn(6000);
    const first = budget.open(20_000);
    const other = budget.open(600_000);
    first.hold(9000);
    await first.admit(6000);
    await first.admit(3000).catch(() => undefined);
    expect((await other.available(60_000)).tokens).toBe(6000);
  });

  test("a long plan's hold counts against a newcomer only up to the fair share (max-min), but what it cannot do without counts in full", async () => {
    const { budget } = budgetOn(6000);
    const long = budget.open(120_000);
    const short = budget.open(120_000);
    await long.plan(60_000, () => ({ hold: 20_000, firm: 0, value: 1 }));
    // 6,000 now and 6,000 refilled within the minute: half each.
    expect((await short.available(60_000)).tokens).toBe(6000);
    short.hold(1000);
    expect((await budget.open(120_000).available(60_000)).tokens).toBe(5500);
    const firm = budget.open(120_000);
    await firm.plan(60_000, () => ({ hold: 4000, value: 1 }));
    expect((await budget.open(120_000).available(60_000)).tokens).toBe(3500);
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
    const store = createMemoryBudgetStore({
      limits: { tokensPerWindow: 6000, requestsPerWindow: 30 },
      windowMs: 60_000,
      now: () => 0,
    });
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
    const store = createMemoryBudgetStore({
      limits: { tokensPerWindow: 6000, requestsPerWindow: 30 },
      windowMs: 60_000,
      now: () => 0,
    });
    const budget = createLlmBudget({ store, now: () => 0, sleep: () => new Promise(() => {}) });
    await budget.open(120_000).plan(60_000, () => ({ hold: 2000, value: 1 }));
    expect(await budget.open(120_000).plan(60_000, () => ({ hold: 1000, value: 2 }))).toBe(2);
  });
});

describe("createLlmBudget() on answers stating no limits", () => {
  test("one headerless answer leaves the limits as they were; several in a row unpace", async () => {
    const store = createMemoryBudgetStore({
      limits: { tokensPerWindow: 6000, requestsPerWindow: 30 },
      windowMs: 60_000,
      now: () => 0,
    });
    const budget = createLlmBudget({ store, now: () => 0 });
    const request = budget.open(120_000);
    await request.settle(1000, 1000, {});
    expect((await store.peek()).limits.tokensPerWindow).toBe(6000);
    await request.settle(1000, 1000, {});
    await request.settle(1000, 1000, {});
    expect((await store.peek()).limits.tokensPerWindow).toBeGreaterThan(1e9);
  });
});
