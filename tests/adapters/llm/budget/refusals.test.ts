/** @module Tests of refusals.ts: the budget's two refusals, their codes and their waits. */
import { describe, expect, test } from "bun:test";
import { dayIsSpent, shortOfBudget } from "../../../../src/adapters/llm/budget/refusals.ts";

describe("the LLM budget's refusals", () => {
  test("shortOfBudget() is overloaded, with the wait in whole seconds rounded up, at least one", () => {
    expect(shortOfBudget(60_000)).toMatchObject({ code: "overloaded", retryAfterSeconds: 60 });
    expect(shortOfBudget(1_001)).toMatchObject({ retryAfterSeconds: 2 });
    expect(shortOfBudget(0)).toMatchObject({ retryAfterSeconds: 1 });
    expect(shortOfBudget(5_000).message).toContain("try again in 5 s");
  });

  test("dayIsSpent() is the provider's limit, upstream_blocked, and never asks to wait more than a day", () => {
    expect(dayIsSpent(8_640_000)).toMatchObject({ code: "upstream_blocked", retryAfterSeconds: 8640 });
    expect(dayIsSpent(3 * 86_400_000)).toMatchObject({ retryAfterSeconds: 86_400 });
    expect(dayIsSpent(10)).toMatchObject({ retryAfterSeconds: 1 });
  });
});
