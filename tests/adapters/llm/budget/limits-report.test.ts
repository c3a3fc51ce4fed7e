/** @module Tests of reading the provider's limits from Groq's rate-limit headers and messages. */
import { describe, expect, test } from "bun:test";
import {
  parseDurationMs,
  reportFromHeaders,
  reportFromMessage,
} from "../../../../src/adapters/llm/budget/limits-report.ts";

describe("the provider's limit reports", () => {
  test("reportFromHeaders() reads Groq's x-ratelimit headers, and nothing from an answer without them", () => {
    const headers = new Headers({
      "x-ratelimit-limit-tokens": "6000",
      "x-ratelimit-remaining-tokens": "4180",
      "x-ratelimit-reset-tokens": "18.2s",
      "x-ratelimit-limit-requests": "14400",
      "x-ratelimit-remaining-requests": "14399",
    });
    // Groq's request headers count the day's requests (RPD); its token headers the minute's tokens.
    expect(reportFromHeaders(headers)).toEqual({
      tokenLimit: 6000,
      tokensRemaining: 4180,
      dayRequestLimit: 14400,
      dayRequestsRemaining: 14399,
    });
    // OpenAI's (and most other servers') count both per minute.
    expect(reportFromHeaders(headers, "openai")).toEqual({
      tokenLimit: 6000,
      tokensRemaining: 4180,
      requestLimit: 14400,
      requestsRemaining: 14399,
    });
    expect(Object.values(reportFromHeaders(new Headers())).filter((v) => v !== undefined)).toEqual([]);
    expect(reportFromHeaders(new Headers({ "x-ratelimit-limit-tokens": "lots" })).tokenLimit).toBeUndefined();
  });

  test("reportFromMessage() reads a 429 on tokens per minute: limit, what is left, and the wait", () => {
    const message =
      "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5000, Requested 2000. Please try again in 9.83s. Need more tokens? Upgrade to Dev Tier today.";
    expect(reportFromMessage(message)).toEqual({
      tokenLimit: 6000,
      tokensRemaining: 1000,
      requestLimit: undefined,
      requestsRemaining: undefined,
      retryAfterMs: 9830,
      requested: 2000,
    });
  });

  test("reportFromMessage() reads a 429 on requests per minute as requests, not tokens", () => {
    const report = reportFromMessage(
      "Rate limit reached for model `x` on requests per minute (RPM): Limit 30, Used 30, Requested 1. Please try again in 2s. Need more tokens?",
    );
    expect([report.tokenLimit, report.requestLimit, report.requestsRemaining, report.retryAfterMs]).toEqual([
      undefined,
      30,
      0,
      2000,
    ]);
  });

  test("reportFromMessage() reads a 429 on tokens per day as the day's: its limit, what is left, and the day's wait", () => {
    const report = reportFromMessage(
      "Rate limit reached for model `openai/gpt-oss-20b` in organization `org_x` service tier `on_demand` on tokens per day (TPD): Limit 200000, Used 199500, Requested 3000. Please try again in 3h12m5s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
    );
    expect(report).toMatchObject({
      tokenLimit: undefined,
      dayTokenLimit: 200_000,
      dayTokensRemaining: 500,
      dayRetryAfterMs: 11_525_000,
      retryAfterMs: 11_525_000,
      requested: 3000,
    });
  });

  test("reportFromMessage() reads a 429 on requests per day as the day's requests", () => {
    const report = reportFromMessage(
      "Rate limit reached for model `x` on requests per day (RPD): Limit 1000, Used 1000, Requested 1. Please try again in 1m26.4s.",
    );
    expect([report.requestLimit, report.dayRequestLimit, report.dayRequestsRemaining, report.dayRetryAfterMs]).toEqual(
      [undefined, 1000, 0, 86_400],
    );
  });

  test("reportFromMessage() reads a 413's limit and the size asked", () => {
    const report = reportFromMessage(
      "Request too large for model `llama-3.1-8b-instant` on tokens per minute (TPM): Limit 6000, Requested 6294, please reduce your message size and try again.",
    );
    expect([report.tokenLimit, report.requested, report.tokensRemaining]).toEqual([6000, 6294, undefined]);
  });

  test("parseDurationMs() reads the durations Groq writes", () => {
    expect(["7.66s", "2m59.56s", "250ms", "1h2m", "0s"].map(parseDurationMs)).toEqual([
      7660,
      179_560,
      250,
      3_720_000,
      0,
    ]);
    expect(["", "soon", "5"].map(parseDurationMs)).toEqual([undefined, undefined, undefined]);
  });
});
