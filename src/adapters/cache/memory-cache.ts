/** @module An in-process cache with expiry, bounded by entry count and by bytes, evicting the least recently used. */
import type { Cache } from "../../domain/ports.ts";
import { approximateBytes } from "./approximate-bytes.ts";

interface Entry<T> {
  key: string;
  value: T;
  expiresAt: number;
  /** Its approximate heap size, counted against `maxBytes`. */
  bytes: number;
  /** When it was last moved to the recent end, counted in moves. */
  movedAt: number;
}

/** An in-process cache, with the heap it counts now and a way to count memory made later for a value. */
export interface MemoryCache<T> extends Cache<T> {
  /** The approximate heap the cached values (and what was charged to them) hold now. */
  readonly bytes: number;
  /** Counts `bytes` more against the entry whose value `owner` belongs to (see `ownerOf`); nothing if none is. */
  charge(owner: object, bytes: number): void;
}

/**
 * An in-process cache bounded by entry count and by the approximate heap its
 * values hold, evicting the least recently used entries first until both
 * bounds hold; a value larger than the byte bound alone is not kept. Expired
 * entries are dropped when read. Recency is approximate: a read moves an entry
 * to the recent end only when it is not already in the recent half, so a read
 * entry survives at least half the bound's insertions (a hot entry is not
 * re-inserted on every read).
 *
 * @param options.maxEntries the bound in entries (at least 1)
 * @param options.maxBytes the bound in bytes of heap (see {@link approximateBytes}); none by default
 * Memory made for a cached value after it was set (a transcript's lines and scores, kept while the transcript lives)
 * is counted with it through `charge`: `ownerOf` names the object such memory is kept for (e.g. the transcript's
 * cues), and each charge adds to that entry's bytes, evicting as `set` does. Such memory is freed with its owner.
 *
 * @param options.maxEntries the bound in entries (at least 1)
 * @param options.maxBytes the bound in bytes of heap (see {@link approximateBytes}); none by default
 * @param options.sizeOf how a value's bytes are measured (default {@link approximateBytes}), once when it is set
 * @param options.ownerOf the object of a value that later charges name (none: `charge` counts nothing)
 * @param options.now clock in ms, swappable in tests
 */
export function createMemoryCache<T>(
  options: {
    maxEntries: number;
    maxBytes?: number;
    sizeOf?: (value: T) => number;
    ownerOf?: (value: T) => object | undefined;
    now?: () => number;
  },
): MemoryCache<T> {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? Infinity;
  const sizeOf = options.sizeOf ?? approximateBytes;
  const entries = new Map<string, Entry<T>>();
  /** The entry each owner object belongs to, while it is cached. */
  const owned = new WeakMap<object, Entry<T>>();
  let moves = 0;
  let bytes = 0;
  // An entry read again soon after its last move stays where it is: it is in the recent half, far
  // from eviction, and a hot entry read on every request is not re-inserted every time.
  const recentSpan = Math.max(1, Math.floor(options.maxEntries / 2));
  const drop = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const evict = (): void => {
    while (entries.size > options.maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
  };
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        drop(key);
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
      drop(key);
      const size = maxBytes === Infinity ? 0 : sizeOf(value);
      if (size > maxBytes) return;
      const entry: Entry<T> = { key, value, expiresAt: now() + ttlMs, bytes: size, movedAt: ++moves };
      entries.set(key, entry);
      const owner = options.ownerOf?.(value);
      if (owner) owned.set(owner, entry);
      bytes += size;
      evict();
    },
    charge(owner, added) {
      const entry = owned.get(owner);
      if (!entry || entries.get(entry.key) !== entry || maxBytes === Infinity) return;
      entry.bytes += added;
      bytes += added;
      evict();
    },
    /** The approximate heap the cached values hold now. */
    get bytes() {
      return bytes;
    },
  };
}
