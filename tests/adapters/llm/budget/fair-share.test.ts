/** @module Tests of fair-share.ts: max-min shares, finish tags and waits on a view of the bucket. */
import { describe, expect, test } from "bun:test";
import { createFairClock, maxMinShare, waitOn } from "../../../../src/adapters/llm/budget/fair-share.ts";

const view = { tokens: 1000, limits: { tokensPerWindow: 6000, requestsPerWindow: 30 }, blockedMs: 0, windowMs: 60_000 };

describe("fair-share arithmetic", () => {
  test("maxMinShare() lets small claims keep all they hold and splits the rest equally", () => {
    expect(maxMinShare(12_000, [])).toBe(12_000);
    expect(maxMinShare(12_000, [20_000])).toBe(6000);
    expect(maxMinShare(12_000, [1000, 20_000])).toBe(5500);
    expect(maxMinShare(3000, [1000, 1000, 1000])).toBe(750);
    expect(maxMinShare(-5, [1])).toBe(0);
  });

  test("a FairClock tags a newcomer's small call ahead of a busy request's next one", () => {
    const clock = createFairClock();
    const busy = clock.tag(4000, 0);
    clock.served(busy, 4000);
    const next = clock.tag(4000, busy);
    expect(clock.tag(1000, 0)).toBeLessThan(next);
  });

  test("waitOn() is the refill time for the tokens after those others take first, and a block", () => {
    expect(waitOn(view, 500)).toBe(0);
    expect(waitOn(view, 2000)).toBe(10_000);
    expect(waitOn(view, 500, 1500)).toBe(10_000);
    expect(waitOn({ ...view, blockedMs: 3000 }, 500)).toBe(3000);
  });
});
