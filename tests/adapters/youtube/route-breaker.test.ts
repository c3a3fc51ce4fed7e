/** @module Tests of route-breaker.ts: closed, open with a doubling cool-down, half-open with one trial. */
import { describe, expect, test } from "bun:test";
import { createMemoryRouteStates, createRouteBreaker } from "../../../src/adapters/youtube/route-breaker.ts";

function breaker(failures = 3, cooldownMs = 1_000) {
  const clock = { at: 1_000_000 };
  const now = () => clock.at;
  return {
    clock,
    breaker: createRouteBreaker({ store: createMemoryRouteStates(now), failures, cooldownMs, trialLeaseMs: 500, now }),
  };
}

describe("createRouteBreaker()", () => {
  test("stays closed below the failure count; a pass resets the count", async () => {
    const { breaker: b } = breaker(3);
    await b.blocked("r");
    await b.blocked("r");
    await b.passed("r");
    await b.blocked("r");
    await b.blocked("r");
    expect(await b.admit("r")).toEqual({ ok: true, trial: false });
  });

  test("opens after the failure count in a row, until the cool-down ends, then admits one trial", async () => {
    const { clock, breaker: b } = breaker(2, 1_000);
    await b.blocked("r");
    await b.blocked("r");
    expect(await b.admit("r")).toEqual({ ok: false, retryAt: clock.at + 1_000 });
    expect(b.up("r")).toBe(false);
    clock.at += 1_000;
    expect(await b.admit("r")).toEqual({ ok: true, trial: true });
    expect((await b.admit("r")).ok).toBe(false);
  });

  test("a failed trial doubles the cool-down, up to an hour; a passed trial closes", async () => {
    const { clock, breaker: b } = breaker(1, 1_000_000);
    await b.blocked("r");
    let cooldown = 1_000_000;
    for (let i = 0; i < 4; i++) {
      clock.at += cooldown;
      expect((await b.admit("r")).ok).toBe(true);
      await b.blocked("r");
      cooldown = Math.min(cooldown * 2, 3_600_000);
      expect(await b.admit("r")).toEqual({ ok: false, retryAt: clock.at + cooldown });
    }
    expect(cooldown).toBe(3_600_000);
    clock.at += cooldown;
    expect((await b.admit("r")).ok).toBe(true);
    await b.passed("r");
    expect(await b.admit("r")).toEqual({ ok: true, trial: false });
  });

  test("routes are independent", async () => {
    const { breaker: b } = breaker(1);
    await b.blocked("a");
    expect((await b.admit("a")).ok).toBe(false);
    expect((await b.admit("b")).ok).toBe(true);
  });
});
