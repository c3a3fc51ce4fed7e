/** @module Tests of the quota rules: UTC periods and their ends, and the minutes an answer is charged. */
import { describe, expect, test } from "bun:test";
import { describeDuration } from "../../../src/domain/duration.ts";
import { chargedMinutes, periodEnd, periodsAt } from "../../../src/domain/usage/quota.ts";

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
});
