/** @module Tests of speech-budget.ts: seconds and requests taken, learnt from 429s, early refusals. */
import { describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../src/adapters/llm/budget/budget-store.ts";
import { createSpeechBudget } from "../../../src/adapters/speech/speech-budget.ts";
import { isAppError } from "../../../src/domain/errors.ts";

function budget(seconds = 600, requests = 2) {
  let clock = 0;
  const now = () => clock;
  const sleeps: number[] = [];
  const speech = createSpeechBudget({
    seconds: createMemoryBudgetStore({
      limits: { tokensPerWindow: seconds, requestsPerWindow: 1e9 },
      windowMs: 3_600_000,
      now,
    }),
    requests: createMemoryBudgetStore({
      limits: { tokensPerWindow: requests, requestsPerWindow: requests },
      windowMs: 60_000,
      now,
    }),
    now,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  });
  return { speech, sleeps, advance: (ms: number) => (clock += ms), now };
}

async function refusal(promise: Promise<unknown>) {
  return await promise.then(() => undefined, (error) => error);
}

describe("createSpeechBudget", () => {
  test("takes a video's audio seconds while the hour has them, then refuses at once with overloaded and the wait", async () => {
    const { speech, sleeps } = budget(600);
    await speech.takeSeconds(400, 10_000);
    const error = await refusal(speech.takeSeconds(400, 10_000));
    expect(isAppError(error, "overloaded")).toBe(true);
    // 200 s missing at 600 s an hour: 1,200 s to wait.
    expect(error.retryAfterSeconds).toBe(1_200);
    expect(sleeps).toEqual([]);
  });

  test("waits for seconds that come back before the deadline", async () => {
    const { speech, sleeps } = budget(3_600);
    await speech.takeSeconds(3_600, 10_000);
    await speech.takeSeconds(2, 10_000);
    expect(Math.abs(sleeps.reduce((a, b) => a + b, 0) - 2_000)).toBeLessThanOrEqual(1);
  });

  test("seconds given back (a failed download) can be taken again", async () => {
    const { speech } = budget(600);
    await speech.takeSeconds(600, 1_000);
    await speech.giveSeconds(600);
    await speech.takeSeconds(600, 1_000);
  });

  test("requests per minute: the third upload of a 2/min budget waits its turn, or is refused when the turn is after the deadline", async () => {
    const { speech, sleeps, now } = budget(600, 2);
    await speech.takeRequest(100_000);
    await speech.takeRequest(100_000);
    await speech.takeRequest(100_000);
    expect(Math.abs(sleeps.reduce((a, b) => a + b, 0) - 30_000)).toBeLessThanOrEqual(1);
    const error = await refusal(speech.takeRequest(now() + 1_000));
    expect(isAppError(error, "overloaded")).toBe(true);
  });

  test("learns from a 429: its retry-after blocks both budgets, its audio figures set the seconds left", async () => {
    const { speech } = budget(7_200);
    await speech.observe(
      { retryAfterMs: 90_000 },
      "Rate limit reached for model `whisper-large-v3-turbo` on audio seconds per hour (ASH): Limit 7200, Used 7200, Requested 60.",
    );
    const seconds = await refusal(speech.takeSeconds(10, 30_000));
    expect(isAppError(seconds, "overloaded")).toBe(true);
    expect(seconds.retryAfterSeconds).toBeGreaterThanOrEqual(90);
    expect(isAppError(await refusal(speech.takeRequest(30_000)), "overloaded")).toBe(true);
  });

  test("the audio figures of a 429's message alone set the seconds left", async () => {
    const { speech, now } = budget(7_200);
    await speech.takeSeconds(60, now() + 1_000);
    await speech.observe(
      {},
      "Rate limit reached for model `whisper-large-v3-turbo` on audio seconds per hour (ASH): Limit 7200, Used 7190, Requested 60.",
    );
    expect(isAppError(await refusal(speech.takeSeconds(60, now() + 1_000)), "overloaded")).toBe(true);
    await speech.takeSeconds(10, now() + 1_000);
  });
});
