/** @module Redis's clock as this process reads it: learnt from `TIME` now and then, kept on the monotonic clock. */
import type { RedisConnection } from "./redis-connection.ts";

/** Redis's time (ms since the epoch), as this process estimates it. */
export interface RedisClock {
  /** @throws whatever the connection threw when the clock was never learnt */
  now(): Promise<number>;
}

/** How often the offset is learnt again: a stepped wall clock on Redis's host is followed within this. */
const RELEARN_MS = 10_000;
const clocks = new WeakMap<RedisConnection, RedisClock>();

/**
 * The clock every instance stamps a shared budget with, without a `TIME` in each script: Redis's `TIME`, read once
 * and again every 10 s, plus this process's monotonic clock since (its offset taken at the middle of the round trip,
 * so within half a round trip of Redis's; on a cluster, of the node that answered). Instances agree within about a
 * millisecond; a script never counts time backwards (elapsed time is at least 0), so a small disagreement costs a
 * millisecond's refill at most. One per connection.
 *
 * @param monotonic a clock that never goes back (ms), swappable in tests
 */
export function redisClockOf(
  connection: RedisConnection,
  monotonic: () => number = () => performance.now(),
): RedisClock {
  let clock = clocks.get(connection);
  if (!clock) clocks.set(connection, clock = createRedisClock(connection, monotonic));
  return clock;
}

function createRedisClock(connection: RedisConnection, monotonic: () => number): RedisClock {
  let offset: number | undefined;
  let learntAt = 0;
  let learning: Promise<void> | undefined;
  const learn = async (): Promise<void> => {
    const before = monotonic();
    const [seconds, micros] = await connection.run((c) => c.time());
    const after = monotonic();
    offset = Number(seconds) * 1000 + Number(micros) / 1000 - (before + after) / 2;
    learntAt = after;
  };
  const relearn = (): Promise<void> => (learning ??= learn().finally(() => (learning = undefined)));
  return {
    async now() {
      if (offset === undefined) await relearn();
      // Learnt again in the background: until then the offset kept is within a few microseconds.
      else if (monotonic() - learntAt >= RELEARN_MS) relearn().catch(() => {});
      return Math.floor(monotonic() + offset!);
    },
  };
}
