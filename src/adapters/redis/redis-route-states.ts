/** @module The YouTube routes' breaker states in Redis, shared by every instance; memory while it is down. */
import type { RouteState, RouteStateStore } from "../youtube/route-breaker.ts";
import type { RedisConnection } from "./redis-connection.ts";

/** States outlive the longest cool-down (an hour) with margin, then go: an idle route starts closed. */
const STATE_TTL_MS = 2 * 3_600_000;

/**
 * Every instance leaves by the same proxies, so one instance's blocks tell
 * the others. Each change is a plain `SET` (last writer wins: two instances
 * counting the same block twice open the route slightly early, which is
 * harmless); the half-open trial is claimed with `SET NX PX`, so one instance
 * of all makes it. Redis unreachable: `fallback` (memory) answers, and is
 * kept up to date while Redis answers so that an outage starts from the last
 * known state.
 *
 * @param options.connection the shared Redis connection (its prefix is used)
 * @param options.fallback the store used while Redis is down
 */
export function createRedisRouteStates(
  options: { connection: RedisConnection; fallback: RouteStateStore },
): RouteStateStore {
  const { connection, fallback } = options;
  const stateKey = (key: string) => `${connection.prefix}youtube-route:${connection.tag(key)}`;
  const trialKey = (key: string) => `${connection.prefix}youtube-route-trial:${connection.tag(key)}`;
  return {
    async get(key) {
      try {
        const text = await connection.run((client) => client.get(stateKey(key)));
        const state = text ? parseState(text) : undefined;
        if (state) await fallback.set(key, state);
        return state;
      } catch {
        return await fallback.get(key);
      }
    },
    async set(key, state) {
      await fallback.set(key, state);
      try {
        await connection.run((client) =>
          client.multi().set(stateKey(key), JSON.stringify(state), "PX", STATE_TTL_MS).del(trialKey(key)).exec()
        );
      } catch {
        // Kept in memory; the connection logs the outage once.
      }
    },
    async claimTrial(key, leaseMs) {
      try {
        return (await connection.run((client) => client.set(trialKey(key), "1", "PX", leaseMs, "NX"))) === "OK";
      } catch {
        return await fallback.claimTrial(key, leaseMs);
      }
    },
  };
}

function parseState(text: string): RouteState | undefined {
  try {
    const value = JSON.parse(text) as RouteState;
    return [value.failures, value.openUntil, value.cooldownMs].every((n) => typeof n === "number" && Number.isFinite(n))
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
