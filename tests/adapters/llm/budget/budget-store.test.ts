/** @module Tests of the in-memory LLM budget store: tokens, requests, refunds, learnt limits, retry-after. */
import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../../src/adapters/llm/budget/budget-store.ts";

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
