/** @module Tests of fair-share.ts: max-min shares, finish tags and waits on a view of the bucket. */
import { describe, expect, test } from "bun:test";
import {
  createFairClock,
  dayRoom,
  dayWaitOn,
  holderShare,
  maxMinShare,
  requestShare,
  waitOn,
} from "../../../../src/adapters/llm/budget/fair-share.ts";

const view = {
  tokens: 1000,
  limits: { tokensPerWindow: 6000, requestsPerWindow: 30 },
  blockedMs: 0,
  windowMs: 60_000,
  dayTokens: 0,
  dayRequests: 0,
  dayBlockedMs: 0,
};

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

  test("waitOn() and dayWaitOn() count the day's limit: its refill, its requests and its block", () => {
    const day = { ...view, limits: { ...view.limits, tokensPerDay: 144_000, requestsPerDay: 1_440 } };
    // 144,000 a day is 100 a minute: 1,000 tokens short is 10 minutes; a day's request refills every minute.
    expect(dayWaitOn({ ...day, dayTokens: 0, dayRequests: 5 }, 500, 500)).toBe(600_000);
    expect(waitOn({ ...day, dayTokens: 0, dayRequests: 5 }, 500, 500)).toBe(600_000);
    expect(dayWaitOn({ ...day, dayTokens: 10_000, dayRequests: 0 }, 500)).toBe(60_000);
    expect(dayWaitOn({ ...day, dayTokens: 10_000, dayRequests: 5, dayBlockedMs: 7_000 }, 500)).toBe(7_000);
    expect(dayWaitOn({ ...day, dayTokens: 10_000, dayRequests: 5 }, 500)).toBe(0);
    // No day limit known: the day never waits.
    expect(dayWaitOn({ ...view, dayTokens: 0, dayRequests: 0 }, 500)).toBe(0);
  });

  test("requestShare(): what another request cannot do without comes off the top; the rest of its claim is shared", () => {
    const asking = { held: 0, firm: 0, served: 0 };
    const claims = (other: { held: number; firm: number; served: number }) => new Map([[0, asking], [1, other]]);
    expect(requestShare(claims({ held: 6000, firm: 6000, served: 0 }), 0, 8000)).toBe(2000);
    expect(requestShare(claims({ held: 6000, firm: 0, served: 0 }), 0, 8000)).toBe(4000);
    // A request that holds nothing more claims nothing, whatever it was served.
    expect(requestShare(claims({ held: 0, firm: 0, served: 5000 }), 0, 8000)).toBe(8000);
  });

  test("holderShare(): holders share first, as requests would; then a holder's requests share what it gets", () => {
    const claim = (held: number, holder?: string) => ({ held, firm: 0, served: 0, ...(holder && { holder }) });
    const claims = new Map([[0, claim(3000, "a")], [1, claim(3000, "a")], [2, claim(3000, "a")], [
      3,
      claim(3000, "b"),
    ]]);
    // Two holders: half each of 8,000, where by request b would get a quarter.
    expect(holderShare(claims, 3, 8000)).toBe(4000);
    // b claims 3,000 of its 4,000: a gets 5,000, a third each for its three requests.
    expect(holderShare(claims, 0, 8000)).toBe(1666);
    // Without holders, as requestShare.
    const plain = new Map([[0, claim(6000)], [1, claim(0)]]);
    expect(holderShare(plain, 1, 8000)).toBe(requestShare(plain, 1, 8000));
  });

  test("dayRoom() is what the day gives by then: none known, none while blocked, none before a request comes back", () => {
    const day = { ...view, limits: { ...view.limits, tokensPerDay: 144_000, requestsPerDay: 1_440 } };
    expect(dayRoom(view, 60_000)).toBeUndefined();
    // 144,000 a day is 100 a minute.
    expect(dayRoom({ ...day, dayTokens: 1000, dayRequests: 5 }, 600_000)).toBe(2000);
    expect(dayRoom({ ...day, dayTokens: 1000, dayRequests: 5, dayBlockedMs: 600_000 }, 600_000)).toBe(0);
    expect(dayRoom({ ...day, dayTokens: 1000, dayRequests: 0 }, 30_000)).toBe(0);
  });
});
