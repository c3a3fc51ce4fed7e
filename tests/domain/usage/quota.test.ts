/** @module Tests of the quota rules: UTC periods and their ends, and the minutes an answer is charged. */
import { describe, expect, test } from "bun:test";
import { describeDuration } from "../../../src/domain/duration.ts";
import { CHARACTERS_PER_MINUTE, chargedMinutes, periodEnd, periodsAt } from "../../../src/domain/usage/quota.ts";

describe("periodsAt() and periodEnd()", () => {
  test("name the UTC day and month, whatever the local time zone's date", () => {
    expect(periodsAt(Date.UTC(2026, 10, 14, 23, 59, 59, 999))).toEqual({ day: "2026-11-14", month: "2026-11" });
    expect(periodsAt(Date.UTC(2026, 10, 15))).toEqual({ day: "2026-11-15", month: "2026-11" });
  });

  test("end at the next UTC midnight and the next 1st, across months, years and a leap day", () => {
    expect(periodEnd("day", Date.UTC(2026, 10, 14, 12))).toBe(Date.UTC(2026, 10, 15));
    expect(periodEnd("day", Date.UTC(2026, 10, 30, 23, 59))).toBe(Date.UTC(2026, 11, 1));
    expect(periodEnd("month", Date.UTC(2026, 11, 31, 23, 59))).toBe(Date.UTC(2027, 0, 1));
    expect(periodEnd("day", Date.UTC(2028, 1, 28, 10))).toBe(Date.UTC(2028, 1, 29));
    expect(periodEnd("month", Date.UTC(2028, 1, 29, 10))).toBe(Date.UTC(2028, 2, 1));
    expect(periodEnd("day", Date.UTC(2026, 10, 15))).toBe(Date.UTC(2026, 10, 16));
  });
});

describe("chargedMinutes()", () => {
  test("is the video_duration's whole minutes, and at least 1", () => {
    expect(chargedMinutes(300)).toBe(5);
    expect(chargedMinutes(119.9)).toBe(1);
    expect(chargedMinutes(386 * 60 + 59)).toBe(386);
    expect(chargedMinutes(45)).toBe(1);
    expect(chargedMinutes(undefined)).toBe(1);
  });

  test("charges the minutes video_duration shows for the same seconds, whatever they are", () => {
    const shown = (seconds: number | undefined) =>
      Math.max(1, Number(/^(\d+) minutes?$/.exec(describeDuration(seconds))?.[1] ?? 1));
    for (
      const seconds of [undefined, -5, 0, 0.4, 1, 59.99, 60, 61, 119.9, 120, 3599, 3600, 86_399.5, Number.NaN, Infinity]
    ) {
      expect(chargedMinutes(seconds), String(seconds)).toBe(shown(seconds));
    }
  });

  test("charges the text instead when it is denser than speech: the larger of minutes and characters a minute", () => {
    expect(CHARACTERS_PER_MINUTE).toBe(1_000);
    // A 59-second upload with a caption track at the cap (500,000 characters) is 500 minutes of text.
    expect(chargedMinutes(59, 500_000)).toBe(500);
    // Normal speech (about 920 characters a minute) is charged its minutes.
    expect(chargedMinutes(300, 4_600)).toBe(5);
    expect(chargedMinutes(300, 5_999)).toBe(5);
    expect(chargedMinutes(300, 6_000)).toBe(6);
    // Whole thousands, rounded down, as minutes are; at least 1.
    expect(chargedMinutes(30, 1_999)).toBe(1);
    expect(chargedMinutes(undefined, 0)).toBe(1);
    expect(chargedMinutes(undefined, 12_345)).toBe(12);
    for (const characters of [undefined, -5, Number.NaN, Infinity]) {
      expect(chargedMinutes(300, characters), String(characters)).toBe(5);
    }
  });

  test("never charges less than the minutes, and grows with the characters", () => {
    for (const seconds of [undefined, 0, 59, 60, 3599, 3600]) {
      let previous = 0;
      for (const characters of [0, 999, 1000, 59_999, 60_000, 500_000]) {
        const charged = chargedMinutes(seconds, characters);
        expect(charged).toBeGreaterThanOrEqual(chargedMinutes(seconds));
        expect(charged).toBeGreaterThanOrEqual(previous);
        expect(charged).toBe(Math.max(chargedMinutes(seconds), Math.floor(characters / CHARACTERS_PER_MINUTE)));
        previous = charged;
      }
    }
  });
});
