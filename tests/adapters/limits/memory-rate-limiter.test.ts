/** @module Tests of the in-memory token-bucket rate limiter and of `takeTokens()`. */
import { describe, expect, test } from "bun:test";
import { createMemoryRateLimiter, takeTokens } from "../../../src/adapters/limits/memory-rate-limiter.ts";
import type { KeyIdentity } from "../../../src/domain/ports.ts";

const alice: KeyIdentity = { id: "key_alice", name: "alice" };
const bob: KeyIdentity = { id: "key_bob", name: "bob", rateLimit: "own" };

function limiterAt(clock: { now: number }) {
  return createMemoryRateLimiter({
    now: () => clock.now,
    budgetFor: (identity) => (identity.rateLimit ? { limit: 2, windowSeconds: 60 } : { limit: 3, windowSeconds: 60 }),
  });
}

describe("createMemoryRateLimiter()", () => {
  test("admits the limit, then refuses with the time until the next token", async () => {
    const clock = { now: 1_000_000 };
    const limiter = limiterAt(clock);
    const decisions = [
      await limiter.take(alice),
      await limiter.take(alice),
      await limiter.take(alice),
      await limiter.take(alice),
    ];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[0]!.limit).toBe(3);
    expect(decisions[0]!.resetSeconds).toBeCloseTo(20);
    expect(decisions[2]!.resetSeconds).toBeCloseTo(60);
    expect(decisions[3]!.resetSeconds).toBeCloseTo(20);
  });

  test("refills at limit per window: one token every 20 s for 3/min", async () => {
    const clock = { now: 0 };
    const limiter = limiterAt(clock);
    for (let i = 0; i < 3; i++) await limiter.take(alice);
    clock.now += 19_000;
    expect((await limiter.take(alice)).allowed).toBe(false);
    clock.now += 1_000;
    const after = await limiter.take(alice);
    expect(after.allowed).toBe(true);
    expect(after.remaining).toBe(0);
    clock.now += 3_600_000;
    expect((await limiter.take(alice)).remaining).toBe(2);
  });

  test("a key's own budget applies to it alone", async () => {
    const limiter = limiterAt({ now: 0 });
    expect((await limiter.take(bob)).limit).toBe(2);
    await limiter.take(bob);
    expect((await limiter.take(bob)).allowed).toBe(false);
    expect((await limiter.take(alice)).allowed).toBe(true);
  });

  test("cost 0 only looks and cost -1 gives a request back", async () => {
    const limiter = limiterAt({ now: 0 });
    await limiter.take(alice);
    expect((await limiter.take(alice, 0)).remaining).toBe(2);
    expect((await limiter.take(alice, 0)).remaining).toBe(2);
    expect((await limiter.take(alice, -1)).remaining).toBe(3);
    expect((await limiter.take(alice, -1)).remaining).toBe(3);
  });

  test("a key without any budget is unlimited and carries no limit", async () => {
    const limiter = createMemoryRateLimiter({ budgetFor: () => undefined });
    const decision = await limiter.take(alice);
    expect(decision.allowed).toBe(true);
    expect(decision.limit).toBeUndefined();
  });

  test("keeps at most maxKeys buckets", async () => {
    const clock = { now: 0 };
    const limiter = createMemoryRateLimiter({
      now: () => clock.now,
      maxKeys: 2,
      budgetFor: () => ({ limit: 1, windowSeconds: 60 }),
    });
    for (const id of ["a", "b", "c"]) await limiter.take({ id, name: id });
    expect((await limiter.take({ id: "c", name: "c" })).allowed).toBe(false);
    expect((await limiter.take({ id: "a", name: "a" })).allowed).toBe(true);
  });
});

describe("takeTokens()", () => {
  test("never holds more than the limit, however long the bucket waited", () => {
    const { bucket } = takeTokens({ limit: 5, windowSeconds: 1 }, { tokens: 0, atMs: 0 }, 1, 10_000_000);
    expect(bucket.tokens).toBe(4);
  });
});
