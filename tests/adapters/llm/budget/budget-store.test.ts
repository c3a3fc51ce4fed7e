/** @module Tests of the in-memory LLM budget store: tokens, requests, refunds, learnt limits, retry-after. */
import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";
import { createHeaderlessRule } from "../../../../src/adapters/llm/budget/headerless.ts";

const FREE = { tokensPerWindow: 6000, requestsPerWindow: 30 };

function store(limits = FREE) {
  let clock = 0;
  const budget = createMemoryBudgetStore({ limits, windowMs: 60_000, now: () => clock });
  return { budget, advance: (ms: number) => (clock += ms) };
}

describe("createMemoryBudgetStore()", () => {
  test("takes tokens while the window has them, then says how long until it refills enough", async () => {
    const { budget, advance } = store();
    expect(await budget.take(5000)).toBe(0);
    // 1,000 left; 2,000 more need 1,000 tokens refilled at 100 a second.
    expect(await budget.take(2000)).toBe(10_000);
    advance(10_000);
    expect(await budget.take(2000)).toBe(0);
    expect((await budget.peek()).tokens).toBe(0);
  });

  test("counts requests too: the 31st call of a minute waits", async () => {
    const { budget } = store({ tokensPerWindow: 1_000_000, requestsPerWindow: 30 });
    for (let i = 0; i < 30; i++) expect(await budget.take(1)).toBe(0);
    expect(await budget.take(1)).toBe(2000);
  });

  test("leaves the tokens held for earlier requests, but never holds back more than the window can hold", async () => {
    const { budget } = store();
    expect(await budget.take(1000)).toBe(0);
    expect(await budget.take(2000, 4500)).toBe(10_000);
    expect(await budget.take(500, 4500)).toBe(0);
    // A full window cannot fill further: a hold larger than it would block for ever.
    const full = store().budget;
    expect(await full.take(4000, 999_999)).toBe(0);
  });

  test("gives back what a call took beyond its charge, up to the window", async () => {
    const { budget } = store();
    await budget.take(4000);
    await budget.give(1500);
    expect((await budget.peek()).tokens).toBe(3500);
    await budget.give(1_000_000);
    expect((await budget.peek()).tokens).toBe(6000);
  });

  test("a take looks at the budget it found; a settle gives back, then learns, and returns the budget then", async () => {
    const { budget } = store();
    expect(await budget.takeAndLook(4000)).toMatchObject({ wait: 0, before: { tokens: 6000 } });
    expect(await budget.takeAndLook(4000)).toMatchObject({ wait: 20_000, before: { tokens: 2000 } });
    expect((await budget.settle(1500)).tokens).toBe(3500);
    expect((await budget.settle(2000, { tokenLimit: 6000, tokensRemaining: 5000 })).tokens).toBe(5000);
    expect((await budget.settle(0, { tokenLimit: 6000, tokensRemaining: 1000 })).tokens).toBe(1000);
  });

  test("takes the provider's lower remaining figure, and its limit when it states another", async () => {
    const { budget } = store();
    await budget.observe({ tokenLimit: 6000, tokensRemaining: 1200 });
    expect((await budget.peek()).tokens).toBe(1200);
    await budget.observe({ tokenLimit: 6000, tokensRemaining: 5000 });
    expect((await budget.peek()).tokens).toBe(1200);
    await budget.observe({ tokenLimit: 300_000, tokensRemaining: 299_000, requestLimit: 1000 });
    const view = await budget.peek();
    expect([view.tokens, view.limits.tokensPerWindow, view.limits.requestsPerWindow]).toEqual([299_000, 300_000, 1000]);
  });

  test("a 429's retry-after holds every call back until it has passed", async () => {
    const { budget, advance } = store();
    await budget.observe({ retryAfterMs: 3000 });
    expect(await budget.take(10)).toBe(3000);
    advance(3000);
    expect(await budget.take(10)).toBe(0);
  });
});

describe("createMemoryBudgetStore() and implausible figures", () => {
  test("a stated token limit no plan could have (under 1,000) is ignored, so one garbage figure cannot block the service", async () => {
    const { budget } = store();
    await budget.observe({ tokenLimit: 10 });
    await budget.observe({ tokenLimit: 1, requestLimit: 0 });
    const view = await budget.peek();
    expect([view.limits.tokensPerWindow, view.limits.requestsPerWindow]).toEqual([6000, 30]);
  });
});

describe("createMemoryBudgetStore() and the provider's day", () => {
  const DAY = { tokensPerWindow: 8_000, requestsPerWindow: 30, tokensPerDay: 20_000, requestsPerDay: 1_000 };

  test("a call needs the day's tokens as well as the minute's; the day refills over 1,440 windows", async () => {
    const { budget, advance } = store(DAY);
    for (let i = 0; i < 4; i++) {
      expect(await budget.take(5_000)).toBe(0);
      advance(60_000);
    }
    // The minute is full again, the day has 0 of 20,000 (plus 4 minutes' refill of 13.9 a minute).
    const wait = await budget.take(5_000);
    expect(wait).toBeGreaterThan(300 * 60_000);
    expect((await budget.peek()).dayTokens).toBeLessThan(100);
  });

  test("a TPD 429 teaches the day's level and blocks until its retry-after, not the minute", async () => {
    const { budget, advance } = store(DAY);
    await budget.observe({ dayTokenLimit: 20_000, dayTokensRemaining: 300, dayRetryAfterMs: 3_600_000 });
    const view = await budget.peek();
    expect([view.dayTokens, view.dayBlockedMs, view.blockedMs]).toEqual([300, 3_600_000, 0]);
    expect(await budget.take(100)).toBe(3_600_000);
    advance(3_600_000);
    expect(await budget.take(100)).toBe(0);
  });

  test("Groq's request headers teach the day's requests; a window's token limit other than the free plan's drops the day's assumed tokens", async () => {
    const { budget } = store(DAY);
    await budget.observe({ tokenLimit: 8_000, dayRequestLimit: 14_400, dayRequestsRemaining: 14_000 });
    expect((await budget.peek()).limits).toMatchObject({ tokensPerDay: 20_000, requestsPerDay: 14_400 });
    await budget.observe({ tokenLimit: 250_000, tokensRemaining: 250_000 });
    expect((await budget.peek()).limits.tokensPerDay).toBeUndefined();
  });

  test("a day limit the provider states stays, whatever the window's", async () => {
    const { budget } = store(DAY);
    await budget.observe({ dayTokenLimit: 500_000, dayTokensRemaining: 400_000 });
    await budget.observe({ tokenLimit: 250_000 });
    expect((await budget.peek()).limits.tokensPerDay).toBe(500_000);
    expect((await budget.peek()).dayTokens).toBe(400_000);
  });

  test("an endpoint found to state no limits is unpaced by the day too: the free plan's assumed day no longer holds calls", async () => {
    const { budget } = store(DAY);
    const rule = createHeaderlessRule({ assumed: DAY });
    let learnt;
    for (let i = 0; i < 3; i++) learnt = rule.judge({}, false).learn;
    await budget.observe(learnt!);
    for (let i = 0; i < 2_000; i++) expect(await budget.take(50)).toBe(0);
  });
});
