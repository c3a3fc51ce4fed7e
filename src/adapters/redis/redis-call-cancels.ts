/** @module Cancellations of calls in flight: told in this process, and through Redis pub/sub to every instance. */
import type { CallCancels } from "../../domain/ports.ts";
import type { RedisConnection } from "./redis-connection.ts";

/**
 * Cancellations of calls in flight. A cancellation reaches the calls watching
 * its key in this process at once and, with a Redis connection, every other
 * instance on the same Redis (and prefix) through one pub/sub channel. Pub/sub
 * keeps nothing: a cancellation sent while Redis is unreachable reaches this
 * instance only, and the call elsewhere runs to its end (or its time limit).
 * An instance hears its own messages back; a cancel must be safe to run twice.
 *
 * @param options.connection the shared Redis connection; without it, this process only
 */
export function createRedisCallCancels(options: { connection?: RedisConnection } = {}): CallCancels {
  const { connection } = options;
  const watchers = new Map<string, Set<() => void>>();
  const deliver = (key: string): void => {
    const found = watchers.get(key);
    if (!found) return;
    for (const cancel of [...found]) cancel();
  };
  const channel = connection ? `${connection.prefix}call-cancels` : undefined;
  if (connection && channel) connection.subscribe(channel, deliver);
  return {
    watch(key, cancel) {
      let set = watchers.get(key);
      if (!set) watchers.set(key, set = new Set());
      set.add(cancel);
      return () => {
        set.delete(cancel);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
    },
    async cancel(key) {
      deliver(key);
      if (!connection || !channel) return;
      try {
        await connection.run((client) => client.publish(channel, key));
      } catch {
        // Redis is unreachable (the connection logs the outage once): the call elsewhere is not told.
      }
    },
  };
}
