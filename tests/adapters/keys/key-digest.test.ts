/** @module Tests of key-digest.ts: digests of presented keys, and the bounded memory of recent ones. */
import { describe, expect, test } from "bun:test";
import { rememberDigests, sha256Hex } from "../../../src/adapters/keys/key-digest.ts";

describe("rememberDigests", () => {
  test("digests a key presented again only once, with the same digest", () => {
    const calls: string[] = [];
    const digest = rememberDigests((key) => (calls.push(key), sha256Hex(key)));
    expect(digest("vcs_a")).toBe(sha256Hex("vcs_a"));
    expect(digest("vcs_a")).toBe(sha256Hex("vcs_a"));
    expect(calls).toEqual(["vcs_a"]);
  });

  test("remembers at most maxEntries keys, the oldest leaving first", () => {
    const calls: string[] = [];
    const digest = rememberDigests((key) => (calls.push(key), key.toUpperCase()), 2);
    for (const key of ["a", "b", "c", "b", "a"]) digest(key);
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });

  test("never keeps a key longer than 256 characters", () => {
    const calls: string[] = [];
    const digest = rememberDigests((key) => (calls.push(key), "d"));
    const long = "k".repeat(257);
    digest(long);
    digest(long);
    expect(calls).toHaveLength(2);
  });
});
