/** @module Tests of the rule of upstream work: admitted and committed first, pieces charged, others' refusals retried. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/domain/errors.ts";
import { Account, TRIES_AFTER_FOREIGN_REFUSAL } from "../../../src/domain/usage/account.ts";
import { admitUpstream, speechCharges, withOwnRefusals } from "../../../src/domain/usage/upstream-work.ts";

describe("admitUpstream()", () => {
  test("admits the caller to the video's minutes, then commits it; a request-only caller is committed alone", async () => {
    const steps: string[] = [];
    const account = new Account({
      admit: async (minutes) => void steps.push(`admit ${minutes}`),
      working: (minutes) => void steps.push(`working ${minutes}`),
    });
    await admitUpstream(account, 5 * 60);
    await admitUpstream(account, 5 * 60);
    expect(steps).toEqual(["admit 5", "working 5"]);
    const requestOnly: number[] = [];
    await admitUpstream(new Account({ working: (minutes) => void requestOnly.push(minutes) }), 90);
    expect(requestOnly).toEqual([1]);
  });

  test("a request that has ended refuses each time: no work starts for it", async () => {
    const ended = new AppError("quota_exceeded", "ended");
    const account = new Account({
      working: () => {
        throw ended;
      },
    });
    await expect(admitUpstream(account, 60)).rejects.toBe(ended);
    await expect(admitUpstream(account, 60)).rejects.toBe(ended);
  });
});

describe("speechCharges()", () => {
  test("holds the minutes before any audio, then charges each piece's seconds as it is transcribed", async () => {
    const told: string[] = [];
    const account = new Account({
      admit: async (minutes) => void told.push(`admit ${minutes}`),
      working: () => void told.push("working"),
      spend: (spent) => void told.push(`spend ${spent.audioSeconds}`),
    });
    const charges = speechCharges(account, (seconds) => told.push(`admitted ${seconds}`));
    await charges.beforeSpeech(125);
    charges.onAudioTranscribed(40);
    charges.onAudioTranscribed(20.5);
    expect(told).toEqual(["admit 2", "working", "admitted 125", "spend 40", "spend 20.5"]);
    expect(account.spent?.audioSeconds).toBe(60.5);
  });
});

describe("withOwnRefusals()", () => {
  test("tries again after another caller's refusal, and throws the caller's own at once", async () => {
    const own = new AppError("quota_exceeded", "yours");
    const account = new Account({ admit: () => Promise.reject(own) });
    let tries = 0;
    const value = await withOwnRefusals(account, async () => {
      if (++tries === 1) throw new AppError("quota_exceeded", "another key's");
      return "answer";
    });
    expect([value, tries]).toEqual(["answer", 2]);
    await expect(withOwnRefusals(account, () => account.admit(60))).rejects.toBe(own);
  });

  test("after its tries, fails with its own message: another key's quota message and Retry-After never reach it", async () => {
    let tries = 0;
    const error = await withOwnRefusals<AppError>(new Account(), () => {
      tries++;
      throw new AppError("quota_exceeded", "This API key has 3 of its 10 video minutes left", {
        retryAfterSeconds: 99,
      });
    }).catch((e: AppError) => e);
    expect(tries).toBe(TRIES_AFTER_FOREIGN_REFUSAL);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).not.toBe("quota_exceeded");
    expect(error.message).not.toContain("minutes");
    expect(error.retryAfterSeconds).toBeUndefined();
  });
});
