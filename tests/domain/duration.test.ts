/** @module Tests of `describeDuration()`: metadata, last cue end and unknown lengths. */
import { describe, expect, test } from "bun:test";
import { describeDuration } from "../../src/domain/duration.ts";

describe("describeDuration()", () => {
  test.each([
    [59, "59 seconds"],
    [60, "1 minute"],
    [119, "1 minute"],
    [120, "2 minutes"],
    [316, "5 minutes"],
    [6 * 3600 + 26 * 60 + 9, "386 minutes"],
    [45, "45 seconds"],
    [1, "1 second"],
    [59.9, "59 seconds"],
  ])("words %p seconds as %p", (seconds, words) => {
    expect(describeDuration(seconds)).toBe(words);
  });

  test("uses the transcript's last cue end when YouTube does not know the length", () => {
    expect(describeDuration(undefined, 125.4)).toBe("2 minutes");
    expect(describeDuration(0, 42)).toBe("42 seconds");
  });

  test("prefers YouTube's metadata over the transcript", () => {
    expect(describeDuration(316, 8.9)).toBe("5 minutes");
  });

  test("says unknown when neither is known", () => {
    expect(describeDuration(undefined)).toBe("unknown");
    expect(describeDuration(Number.NaN, undefined)).toBe("unknown");
  });
});
