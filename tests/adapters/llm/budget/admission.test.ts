/** @module Tests of admission.ts: who is out of reach, whose turn it is, and when a plan is stale. */
import { describe, expect, test } from "bun:test";
import {
  type Claim,
  type Look,
  outOfReach,
  takeStale,
  turnOrder,
  type Waiter,
} from "../../../../src/adapters/llm/budget/admission.ts";
import { AppError } from "../../../../src/domain/errors.ts";

/** An empty bucket of 6,000 tokens a minute (100 a second), looked at at 0. */
function lookAt(extra: Partial<Look["view"]> = {}): Look {
  const view = {
    tokens: 0,
    limits: { tokensPerWindow: 6000, requestsPerWindow: 1000 },
    blockedMs: 0,
    windowMs: 60_000,
    dayTokens: 0,
    dayRequests: 0,
    dayBlockedMs: 0,
    ...extra,
  };
  return { view, at: 0 };
}

const names = new Map<Waiter, string>();
function waiter(name: string, tokens: number, deadline: number, extra: Partial<Waiter> = {}): Waiter {
  const made: Waiter = {
    seq: names.size,
    tokens,
    deadline,
    tokensAfter: 0,
    optional: false,
    part: false,
    tag: names.size,
    since: 0,
    resolve() {},
    reject() {},
    ...extra,
  };
  names.set(made, name);
  return made;
}
const named = (waiters: readonly Waiter[]) => waiters.map((w) => names.get(w));

describe("outOfReach()", () => {
  test("judges in earliest-deadline order: a firm call due first counts ahead, an optional one does not", () => {
    const firm = waiter("firm", 3000, 40_000);
    const optional = waiter("optional", 3000, 35_000, { optional: true });
    const late = waiter("late", 3000, 45_000);
    const refused = outOfReach([late, optional, firm], new Map(), lookAt());
    expect(refused.map(({ waiter }) => names.get(waiter))).toEqual(["late"]);
    expect(refused[0]!.refusal).toMatchObject({ code: "overloaded", retryAfterSeconds: 60 });
  });

  test("a call larger than the window waits a window; a call the day cannot serve is refused as the day's limit", () => {
    const [large] = outOfReach([waiter("large", 7000, 600_000)], new Map(), lookAt());
    expect(large!.refusal).toMatchObject({ code: "overloaded", retryAfterSeconds: 60 });
    const dayLimited = lookAt({
      tokens: 6000,
      limits: { tokensPerWindow: 6000, requestsPerWindow: 1000, tokensPerDay: 10_000 },
    });
    const [day] = outOfReach([waiter("day", 1000, 600_000)], new Map(), dayLimited);
    // 1,000 of 10,000 tokens a day come back in a tenth of a day.
    expect(day!.refusal).toMatchObject({ code: "upstream_blocked", retryAfterSeconds: 8640 });
  });

  test("a plan's first part that misses its time is told to plan again, once; a later part is refused", () => {
    const claim: Claim = { held: 3000, firm: 3000, served: 0, last: 0, waitedMs: 0, planTpm: 6000 };
    const part = waiter("part", 3000, 20_000, { part: true });
    const first = outOfReach([part], new Map([[part.seq, claim]]), lookAt());
    expect(first[0]!.refusal.name).toBe("StalePlanError");
    const again = outOfReach([part], new Map([[part.seq, claim]]), lookAt());
    expect(again[0]!.refusal).toBeInstanceOf(AppError);
  });

  test("a call that fits but for a firm call that joined after it keeps its place: the newcomer is refused", () => {
    // 100 tokens a second: the waiting call's 3,000 fit by 30 s alone, not after the newcomer's 3,000 due earlier.
    const waiting = waiter("waiting", 3000, 40_000, { since: 0 });
    const newcomer = waiter("newcomer", 3000, 35_000, { since: 5_000 });
    const refused = outOfReach([waiting, newcomer], new Map(), lookAt());
    expect(named(refused.map(({ waiter }) => waiter))).toEqual(["newcomer"]);
    // A newcomer that is a plan's part is told to plan again, once, on what is left.
    const claim: Claim = { held: 3000, firm: 3000, served: 0, last: 0, waitedMs: 0 };
    const part = waiter("part", 3000, 35_000, { since: 5_000, part: true });
    const [replan] = outOfReach([waiting, part], new Map([[part.seq, claim]]), lookAt());
    expect([names.get(replan!.waiter), replan!.refusal.name]).toEqual(["part", "StalePlanError"]);
    // The same calls in the other order of arrival: the one due first keeps its earliest-deadline place.
    const early = waiter("early", 3000, 35_000, { since: 0 });
    const later = waiter("later", 3000, 40_000, { since: 5_000 });
    expect(named(outOfReach([early, later], new Map(), lookAt()).map(({ waiter }) => waiter))).toEqual(["later"]);
  });
});

describe("turnOrder()", () => {
  test("a call goes first only when every firm call still starts in time after it and the firm calls due before", () => {
    const small = waiter("small", 1000, 120_000);
    const soon = waiter("soon", 2000, 30_000);
    const next = waiter("next", 2000, 45_000);
    // After small, next would start at 50 s (behind soon): past its 45 s. Only soon harms no one.
    expect(named(turnOrder([next, soon, small], lookAt()))).toEqual(["soon"]);
  });

  test("optional calls are not protected: with soon optional, every call may go, in fair order", () => {
    const small = waiter("small", 1000, 120_000);
    const soon = waiter("soon", 2000, 30_000, { optional: true });
    const next = waiter("next", 2000, 45_000);
    expect(named(turnOrder([next, soon, small], lookAt()))).toEqual(["small", "soon", "next"]);
  });

  test("when every call would make another miss its time, the earliest latest start goes alone", () => {
    const later = waiter("later", 3000, 40_000, { tag: -1 });
    const earlier = waiter("earlier", 3000, 35_000);
    expect(named(turnOrder([later, earlier], lookAt()))).toEqual(["earlier"]);
    // Tokens its plan's later calls need move a call's latest start earlier.
    const planned = waiter("planned", 3000, 40_000, { tag: -1, tokensAfter: 1000 });
    expect(named(turnOrder([planned, waiter("plain", 3000, 35_000)], lookAt()))).toEqual(["planned"]);
  });
});

describe("takeStale()", () => {
  const claim = (extra: Partial<Claim> = {}): Claim => ({
    held: 0,
    firm: 0,
    served: 0,
    last: 0,
    waitedMs: 0,
    planTpm: 6000,
    ...extra,
  });

  test("a lower limit makes any plan stale, once", () => {
    const lower = claim();
    expect(takeStale(lower, 5000)).toBe(true);
    expect(takeStale(lower, 5000)).toBe(false);
    expect(lower.wasStale).toBe(true);
  });

  test("a higher limit makes stale only a plan that was cut down; an unknown limit none", () => {
    expect(takeStale(claim(), 8000)).toBe(false);
    expect(takeStale(claim({ reduced: true }), 8000)).toBe(true);
    expect(takeStale(claim({ reduced: true }), undefined)).toBe(false);
  });
});
