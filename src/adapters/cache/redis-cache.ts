/** @module A cache in Redis shared by every instance, values stored as JSON with expiry. */
import type { Cache } from "../../domain/ports.ts";
import type { RedisConnection } from "../redis/redis-connection.ts";

/**
 * A cache in Redis shared by every instance: values stored as JSON under
 * `<prefix><namespace>:<key>` with Redis's own expiry. When Redis is
 * unreachable or fails, `get` answers a miss and `set` does nothing, so a
 * request goes on to the upstreams instead of failing (the connection logs
 * the outage once).
 *
 * @param options.connection the shared Redis connection
 * @param options.namespace separates caches, e.g. `answer` and `transcript`
 */
export function createRedisCache<T>(options: { connection: RedisConnection; namespace: string }): Cache<T> {
  const { connection } = options;
  const keyOf = (key: string): string => `${connection.prefix}${options.namespace}:${key}`;
  return {
    async get(key) {
      try {
        const text = await connection.run((client) => client.get(keyOf(key)));
        return text === null ? undefined : (JSON.parse(text) as T);
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      try {
        await connection.run((client) => client.set(keyOf(key), JSON.stringify(value), "PX", Math.ceil(ttlMs)));
      } catch {
        // Already logged by the connection; a lost cache write only costs a later miss.
      }
    },
  };
}
