/** @module Tests of the usage rules: UTC periods and their ends, charged minutes, and a caller's account. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/domain/errors.ts";
import { Account, chargedMinutes, periodEnd, periodsAt } from "../../src/domain/usage.ts";

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
    expect(chargedMinutes("5 minutes")).toBe(5);
    expect(chargedMinutes("1 minute")).toBe(1);
    expect(chargedMinutes("386 minutes")).toBe(386);
    expect(chargedMinutes("45 seconds")).toBe(1);
    expect(chargedMinutes("unknown")).toBe(1);
  });
});

describe("Account", () => {
  test("admits once, with the video's minutes; a caller without a quota check is always admitted", async () => {
    const asked: number[] = [];
    const account = new Account(async (minutes) => void asked.push(minutes));
    await account.admit("25 minutes");
    await account.admit("25 minutes");
    expect(asked).toEqual([25]);
    await new Account().admit("5 minutes");
  });

  test("tells its own refusal from another caller's met through shared work", async () => {
    const own = new AppError("quota_exceeded", "mine");
    const account = new Account(() => Promise.reject(own));
    await expect(account.admit("5 minutes")).rejects.toBe(own);
    expect(account.foreign(own)).toBe(false);
    expect(account.foreign(new AppError("quota_exceeded", "another's"))).toBe(true);
    expect(account.foreign(new AppError("upstream_error", "not a quota"))).toBe(false);
  });
});
