/** @module Tests of the readiness state: starting, serving, stopping and Redis outages against the grace period. */
import { describe, expect, test } from "bun:test";
import { createReadiness } from "../../../src/app/metrics/readiness.ts";

/** A clock the test moves by hand. */
function clock() {
  let ms = 1_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe("createReadiness()", () => {
  test("not ready while starting, ready once serving, not ready for good from the stop signal on", () => {
    const readiness = createReadiness({ redisConfigured: false, redisGraceMs: 30_000 });
    expect(readiness.check()).toMatchObject({ ready: false, reason: "starting" });
    readiness.serving();
    expect(readiness.check()).toEqual({ ready: true });
    readiness.stopping();
    expect(readiness.check()).toMatchObject({ ready: false, reason: "shutting_down" });
    readiness.serving();
    expect(readiness.check()).toMatchObject({ ready: false, reason: "shutting_down" });
  });

  test("a Redis outage shorter than the grace period keeps it ready; a longer one makes it not ready until Redis is back", () => {
    const time = clock();
    const readiness = createReadiness({ redisConfigured: true, redisGraceMs: 5_000, now: time.now });
    readiness.redis(true);
    readiness.serving();
    readiness.redis(false);
    time.advance(5_000);
    expect(readiness.check()).toEqual({ ready: true });
    readiness.redis(false); // a second report of the same outage does not restart its clock
    time.advance(1);
    expect(readiness.check()).toMatchObject({
      ready: false,
      reason: "redis_unreachable",
      message: "Redis has been unreachable for 5 s",
    });
    readiness.redis(true);
    expect(readiness.check()).toEqual({ ready: true });
  });

  test("a configured Redis that never answered counts as unreachable since start-up", () => {
    const time = clock();
    const readiness = createReadiness({ redisConfigured: true, redisGraceMs: 2_000, now: time.now });
    readiness.serving();
    expect(readiness.check()).toEqual({ ready: true });
    time.advance(2_001);
    expect(readiness.check()).toMatchObject({ ready: false, reason: "redis_unreachable" });
  });

  test("without Redis configured, Redis never makes it unready", () => {
    const time = clock();
    const readiness = createReadiness({ redisConfigured: false, redisGraceMs: 0, now: time.now });
    readiness.serving();
    time.advance(60_000);
    expect(readiness.check()).toEqual({ ready: true });
  });

  test("a usage store failing keys with quotas past the grace makes it not ready (usage_store_unavailable) until it works", () => {
    const time = clock();
    const readiness = createReadiness({ redisConfigured: false, redisGraceMs: 5_000, now: time.now });
    readiness.serving();
    readiness.usage(false);
    time.advance(5_000);
    expect(readiness.check()).toEqual({ ready: true });
    readiness.usage(false);
    time.advance(1_000);
    expect(readiness.check()).toMatchObject({
      ready: false,
      reason: "usage_store_unavailable",
      message: "The usage store has failed the holds or counts of keys with quotas for 6 s",
    });
    readiness.usage(true);
    expect(readiness.check()).toEqual({ ready: true });
  });
});
