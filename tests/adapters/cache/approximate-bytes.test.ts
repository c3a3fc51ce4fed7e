/** @module Tests of a value's approximate heap size. */
import { describe, expect, test } from "bun:test";
import { approximateBytes } from "../../../src/adapters/cache/approximate-bytes.ts";

describe("approximateBytes()", () => {
  test("grows with the text and the fields a value holds, nested objects and arrays included", () => {
    const cue = (text: string) => ({ start: 1, duration: 2, text });
    const small = approximateBytes({ cues: [cue("hello")] });
    expect(approximateBytes({ cues: [cue("hello"), cue("hello")] })).toBeGreaterThan(small);
    expect(approximateBytes({ cues: [cue("hello".repeat(1_000))] }) - small).toBe(2 * 5 * 999);
    expect(approximateBytes(null)).toBe(0);
  });

  test("a 10,000-cue transcript counts at least its text twice (two bytes a character)", () => {
    const cues = Array.from({ length: 10_000 }, (_, i) => ({ start: i, duration: 4, text: `cue number ${i}` }));
    const text = cues.reduce((sum, c) => sum + c.text.length, 0);
    expect(approximateBytes({ videoId: "x", cues })).toBeGreaterThan(2 * text);
  });
});
