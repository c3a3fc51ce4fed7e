import type { Cache } from "../../domain/ports.ts";

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * An in-process cache bounded by entry count, evicting the least recently
 * used entry first; expired entries are dropped when read.
 *
 * @param options.maxEntries the bound (at least 1)
 * @param options.now clock in ms, swappable in tests
 */
export function createMemoryCache<T>(options: { maxEntries: number; now?: () => number }): Cache<T> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
