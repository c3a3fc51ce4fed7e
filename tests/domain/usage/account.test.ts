/** @module Tests of a caller's account: admitted once with the video's minutes, its own refusals told from others'. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/domain/errors.ts";
import { Account } from "../../../src/domain/usage/account.ts";

describe("Account", () => {
  test("admits once, with the video's minutes; a caller without a quota check is always admitted", async () => {
    const asked: number[] = [];
    const account = new Account({ admit: async (minutes) => void asked.push(minutes) });
    await account.admit(25 * 60);
    await account.admit(25 * 60);
    expect(asked).toEqual([25]);
    await new Account().admit(5 * 60);
  });

  test("tells its own refusal from another caller's met through shared work", async () => {
    const own = new AppError("quota_exceeded", "mine");
    const account = new Account({ admit: () => Promise.reject(own) });
    await expect(account.admit(5 * 60)).rejects.toBe(own);
    expect(account.foreign(own)).toBe(false);
    expect(account.foreign(new AppError("quota_exceeded", "another's"))).toBe(true);
    expect(account.foreign(new AppError("upstream_error", "not a quota"))).toBe(false);
  });

  test("admissions asked at once share one check (a joiner's events and its work's own step)", async () => {
    let asked = 0;
    const account = new Account({ admit: async () => void asked++ });
    await Promise.all([account.admit(5 * 60), account.admit(5 * 60)]);
    expect(asked).toBe(1);
    expect(account.checked).toBe(false);
  });

  test("what the work spends is told at once and added up", () => {
    const told: unknown[] = [];
    const account = new Account({ spend: (spent) => told.push(spent) });
    account.spend({ audioSeconds: 59 });
    account.spend({ inputTokens: 100, outputTokens: 7 });
    expect(told).toEqual([
      { inputTokens: 0, outputTokens: 0, audioSeconds: 59 },
      { inputTokens: 100, outputTokens: 7, audioSeconds: 0 },
    ]);
    expect(account.spent).toEqual({ inputTokens: 100, outputTokens: 7, audioSeconds: 59 });
  });
});
