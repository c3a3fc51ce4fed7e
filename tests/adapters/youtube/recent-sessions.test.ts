/** @module Tests of the recent player sessions: time to live and bound. */
import { describe, expect, test } from "bun:test";
import { createRecentSessions } from "../../../src/adapters/youtube/recent-sessions.ts";

describe("createRecentSessions()", () => {
  test("keeps an entry for its time to live, on the clock given", () => {
    let now = 1_000;
    const recent = createRecentSessions<string>({ ttlMs: 60_000, now: () => now });
    recent.set("vid", "session");
    now += 59_999;
    expect(recent.get("vid")).toBe("session");
    now += 1;
    expect(recent.get("vid")).toBeUndefined();
  });

  test("keeps at most `max` entries, dropping the oldest", () => {
    const recent = createRecentSessions<number>({ max: 2 });
    recent.set("a", 1);
    recent.set("b", 2);
    recent.set("a", 3);
    recent.set("c", 4);
    expect([recent.get("a"), recent.get("b"), recent.get("c")]).toEqual([3, undefined, 4]);
  });
});
