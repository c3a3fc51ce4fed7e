/** @module An in-process cache with expiry, bounded by entry count and evicting the least recently used. */
import type { Cache } from "../../domain/ports.ts";

interface Entry<T> {
  value: T;
  expiresAt: number;
  /** When it was last moved to the recent end, counted in moves. */
  movedAt: number;
}

/**
 * An in-process cache bounded by entry count, evicting the least recently
 * used entry first; expired entries are dropped when read. Recency is
 * approximate: a read moves an entry to the recent end only when it is not
 * already in the recent half, so a read entry survives at least half the
 * bound's insertions (a hot entry is not re-inserted on every read).
 *
 * @param options.maxEntries the bound (at least 1)
 * @param options.now clock in ms, swappable in tests
 */
export function createMemoryCache<T>(options: { maxEntries: number; now?: () => number }): Cache<T> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  let moves = 0;
  // An entry read again soon after its last move stays where it is: it is in the recent half, far
  // from eviction, and a hot entry read on every request is not re-inserted every time.
  const recentSpan = Math.max(1, Math.floor(options.maxEntries / 2));
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      if (moves - entry.movedAt >= recentSpan) {
        entries.delete(key);
        entry.movedAt = ++moves;
        entries.set(key, entry);
      }
      return entry.value;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs, movedAt: ++moves });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
