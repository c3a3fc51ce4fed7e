/** @module Tests of LLM retry timing: requested delays, the retry budget, backoff and abortable sleep. */
import { describe, expect, test } from "bun:test";
import { backoffMs, createRetryBudget, requestedDelayMs, sleep } from "../../../../src/adapters/llm/calls/retry.ts";

describe("requestedDelayMs()", () => {
  test("reads retry-after-ms, retry-after in seconds, and retry-after as an HTTP date", () => {
    expect(requestedDelayMs(new Headers({ "retry-after-ms": "1500" }))).toBe(1500);
    expect(requestedDelayMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(requestedDelayMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }), () => now)).toBe(30_000);
  });

  test("is undefined without a usable header", () => {
    expect(requestedDelayMs(new Headers())).toBeUndefined();
    expect(requestedDelayMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(requestedDelayMs(undefined)).toBeUndefined();
  });
});

describe("createRetryBudget()", () => {
  test("grants waits until the total is spent, and refuses one that does not fit", () => {
    const budget = createRetryBudget(1000);
    expect(budget.take(600)).toBe(true);
    expect(budget.take(600)).toBe(false);
    expect(budget.take(400)).toBe(true);
    expect(budget.take(1)).toBe(false);
  });
});

describe("backoffMs()", () => {
  test("doubles from 0.5 s, capped at 8 s, with jitter below the base", () => {
    expect(backoffMs(0, () => 0)).toBe(500);
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(10, () => 0)).toBe(8000);
    expect(backoffMs(0, () => 0.99)).toBeGreaterThanOrEqual(375);
  });
});

describe("sleep()", () => {
  test("wakes early with a rejection when its signal aborts", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(sleep(5000, controller.signal)).rejects.toThrow("stop");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
