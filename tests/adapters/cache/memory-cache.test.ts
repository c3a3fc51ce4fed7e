/** @module Tests of the in-memory cache: least-recently-used eviction and time to live. */
import { describe, expect, test } from "bun:test";
import { createMemoryCache } from "../../../src/adapters/cache/memory-cache.ts";

describe("createMemoryCache()", () => {
  test("evicts the least recently used entry past its bound (a read counts as a use)", async () => {
    const cache = createMemoryCache<number>({ maxEntries: 2 });
    await cache.set("a", 1, 1_000);
    await cache.set("b", 2, 1_000);
    expect(await cache.get("a")).toBe(1);
    await cache.set("c", 3, 1_000);
    expect([await cache.get("a"), await cache.get("b"), await cache.get("c")]).toEqual([1, undefined, 3]);
  });

  test("drops an entry once its time to live has passed, and keeps nothing with a TTL of 0", async () => {
    let clock = 0;
    const cache = createMemoryCache<string>({ maxEntries: 10, now: () => clock });
    await cache.set("k", "v", 100);
    await cache.set("zero", "v", 0);
    clock = 99;
    expect(await cache.get("k")).toBe("v");
    clock = 100;
    expect(await cache.get("k")).toBeUndefined();
    expect(await cache.get("zero")).toBeUndefined();
  });

  test("a read entry outlives entries not read since (least recently used out first); a hot one is not moved on every read", async () => {
    const cache = createMemoryCache<string>({ maxEntries: 4 });
    for (const key of ["a", "b", "c", "d"]) await cache.set(key, key, 60_000);
    expect(await cache.get("a")).toBe("a");
    await cache.set("e", "e", 60_000);
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("a")).toBe("a");
    // Read again at once, "a" stays in the recent half: it still survives the next maxEntries / 2 insertions.
    await cache.set("f", "f", 60_000);
    await cache.set("g", "g", 60_000);
    expect(await cache.get("a")).toBe("a");
    expect(await cache.get("c")).toBeUndefined();
  });

  test("bounded in bytes: evicts the least recently used until the values fit, and keeps none larger than the bound", async () => {
    const cache = createMemoryCache<string>({ maxEntries: 3, maxBytes: 1_000, sizeOf: (value) => value.length });
    await cache.set("a", "x".repeat(400), 1_000);
    await cache.set("b", "y".repeat(400), 1_000);
    expect(await cache.get("a")).toBeDefined();
    await cache.set("c", "z".repeat(400), 1_000);
    expect([!!(await cache.get("a")), await cache.get("b"), !!(await cache.get("c"))]).toEqual([true, undefined, true]);
    expect(cache.bytes).toBe(800);
    await cache.set("huge", "h".repeat(1_001), 1_000);
    expect(await cache.get("huge")).toBeUndefined();
    expect(cache.bytes).toBe(800);
    await cache.set("a", "short", 1_000);
    expect(cache.bytes).toBe(405);
  });

  test("memory made later for a cached value is charged to it: counted in the bound, evicting, and gone with it", async () => {
    type Held = { owner: object; text: string };
    const cache = createMemoryCache<Held>({
      maxEntries: 10,
      maxBytes: 1_000,
      sizeOf: (value) => value.text.length,
      ownerOf: (value) => value.owner,
    });
    const a = { owner: {}, text: "a".repeat(300) };
    const b = { owner: {}, text: "b".repeat(300) };
    await cache.set("a", a, 60_000);
    await cache.set("b", b, 60_000);
    cache.charge(b.owner, 200);
    expect(cache.bytes).toBe(800);
    cache.charge({}, 500); // not cached: counts nothing
    expect(cache.bytes).toBe(800);
    // Past the bound, the least recently used goes: "a", though "b" was charged last.
    cache.charge(b.owner, 300);
    expect([await cache.get("a"), (await cache.get("b"))?.text.length]).toEqual([undefined, 300]);
    expect(cache.bytes).toBe(800);
    // Replaced, the old value's charges go with it, and later ones for it count nothing.
    await cache.set("b", { owner: {}, text: "c".repeat(100) }, 60_000);
    expect(cache.bytes).toBe(100);
    cache.charge(b.owner, 300);
    expect(cache.bytes).toBe(100);
  });
});
