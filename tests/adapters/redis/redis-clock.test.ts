/** @module Tests of Redis's clock as a process reads it: `TIME` now and then, the monotonic clock between. */
import { describe, expect, test } from "bun:test";
import { redisClockOf } from "../../../src/adapters/redis/redis-clock.ts";
import type { RedisConnection } from "../../../src/adapters/redis/redis-connection.ts";

/** A connection whose Redis answers `TIME` with `redisMs` (counting the calls), after `tripMs` on `monotonic`. */
function rig() {
  const state = { monotonic: 1_000, redisMs: 1_796_000_000_000, tripMs: 4, calls: 0, down: false };
  const client = {
    time: async () => {
      state.calls++;
      if (state.down) throw new Error("Connection is closed.");
      state.monotonic += state.tripMs / 2; // Redis reads its clock halfway through the round trip
      const at = state.redisMs;
      state.monotonic += state.tripMs / 2;
      return [String(Math.floor(at / 1000)), String((at % 1000) * 1000)];
    },
  };
  const connection = { run: (command: (c: unknown) => unknown) => command(client) } as unknown as RedisConnection;
  return { state, clock: redisClockOf(connection, () => state.monotonic) };
}

describe("redisClockOf()", () => {
  test("Redis's time from one TIME, carried on the monotonic clock; asked again after 10 s", async () => {
    const { state, clock } = rig();
    expect(await clock.now()).toBe(1_796_000_000_000 + 2);
    state.monotonic += 5_000;
    expect(await clock.now()).toBe(1_796_000_005_002);
    expect(state.calls).toBe(1);
    state.monotonic += 5_000;
    state.redisMs = 1_796_000_010_500; // Redis's wall clock was stepped by half a second
    await clock.now();
    await Bun.sleep(0);
    expect(state.calls).toBe(2);
    expect(await clock.now()).toBe(1_796_000_010_500 + 2);
  });

  test("never learnt and Redis down: the error reaches the caller; once learnt, an outage keeps the offset", async () => {
    const { state, clock } = rig();
    state.down = true;
    await expect(clock.now()).rejects.toThrow("Connection is closed.");
    state.down = false;
    const first = await clock.now();
    state.down = true;
    state.monotonic += 20_000;
    expect(await clock.now()).toBe(first + 20_000);
  });
});
