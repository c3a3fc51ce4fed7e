/** @module Tests of a caller's account: admitted once with the video's minutes, its own refusals told from others'. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/domain/errors.ts";
import { Account } from "../../../src/domain/usage/account.ts";

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
