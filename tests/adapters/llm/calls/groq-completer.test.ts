/** @module Tests of the LLM attempt outcomes the Groq completer reports to its observer. */
import { ProviderLimitError } from "../../../../src/adapters/llm/calls/completer.ts";
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createGroqCompleter, type LlmOutcome } from "../../../../src/adapters/llm/calls/groq-completer.ts";
import { createRetryBudget } from "../../../../src/adapters/llm/calls/retry.ts";
import { startFakeLlm } from "../../../support/fake/llm.ts";

const llm = startFakeLlm();
let seen: { outcome: LlmOutcome; tokens?: { input: number; output: number } }[] = [];
const completer = createGroqCompleter({
  apiKey: "gsk_fake_completer",
  baseUrl: llm.baseUrl,
  model: "fake-model",
  timeoutMs: 300,
  maxRetries: 2,
  random: () => 0,
  observe: (outcome, seconds, tokens) => {
    expect(seconds).toBeGreaterThanOrEqual(0);
    seen.push(tokens ? { outcome, tokens } : { outcome });
  },
});
const ask = (budgetMs = 5_000) =>
  completer.complete({
    messages: [{ role: "user", content: "hello" }],
    maxTokens: 64,
    retryBudget: createRetryBudget(budgetMs),
  });

afterAll(() => llm.close());
beforeEach(() => {
  llm.reset();
  seen = [];
});

describe("LLM attempts told to the observer", () => {
  test("a 5xx retried then answered is two attempts, 5xx then ok with the tokens the LLM counted", async () => {
    llm.respondWith((
      _,
      index,
    ) => (index === 0
      ? { status: 503, headers: { "retry-after-ms": "10" } }
      : { content: "an answer", promptTokens: 120, completionTokens: 7 })
    );
    await ask();
    expect(seen).toEqual([{ outcome: "5xx" }, { outcome: "ok", tokens: { input: 120, output: 7 } }]);
  });

  test("a 429 is one attempt, handed to the budget (which waits it out) as a rate refusal with its figures", async () => {
    llm.respondWith(() => ({
      status: 429,
      headers: { "retry-after": "2", "x-ratelimit-limit-tokens": "6000", "x-ratelimit-remaining-tokens": "0" },
    }));
    const error = await ask().catch((e) => e);
    expect(error).toBeInstanceOf(ProviderLimitError);
    expect([error.kind, error.report.retryAfterMs, error.report.tokenLimit, error.report.tokensRemaining]).toEqual([
      "rate",
      2000,
      6000,
      0,
    ]);
    expect(seen).toEqual([{ outcome: "429" }]);
  });

  test("413, 5xx, a timeout and a 429 are told as such", async () => {
    llm.respondWith(() => ({ status: 413 }));
    await expect(ask()).rejects.toThrow();
    // The fake's index counts every call since reset: the 413 above was call 0.
    llm.respondWith((_, index) => (index === 1 ? { status: 503, headers: { "retry-after-ms": "5" } } : { hang: true }));
    await expect(ask()).rejects.toThrow();
    llm.respondWith(() => ({ status: 429, headers: { "retry-after": "60" } }));
    await expect(ask()).rejects.toThrow();
    expect(seen.map((s) => s.outcome)).toEqual(["413", "5xx", "timeout", "429"]);
  });
});

describe("models the endpoint does not serve, and reasoning models", () => {
  test("a 404 model_not_found is a 502 naming the model and the setting, not retried, counted model_unavailable", async () => {
    const retired = createGroqCompleter({
      apiKey: "gsk_fake_completer",
      baseUrl: llm.baseUrl,
      model: "llama-3.1-8b-instant",
      timeoutMs: 2_000,
      maxRetries: 2,
      observe: (outcome) => seen.push({ outcome }),
    });
    const error = await retired.complete({
      messages: [{ role: "user", content: "hello" }],
      maxTokens: 64,
      retryBudget: createRetryBudget(5_000),
    }).catch((e) => e);
    expect(error.code).toBe("upstream_error");
    expect(error.message).toContain('"llama-3.1-8b-instant"');
    expect(error.message).toContain("GROQ_MODEL");
    expect(llm.calls).toHaveLength(1);
    expect(seen.map((s) => s.outcome)).toEqual(["model_unavailable"]);
  });

  test("a 400 model_decommissioned is the same", async () => {
    llm.respondWith(() => ({
      status: 400,
      body: {
        error: {
          message: "The model `x` has been decommissioned",
          type: "invalid_request_error",
          code: "model_decommissioned",
        },
      },
    }));
    const error = await ask().catch((e) => e);
    expect(error.message).toContain("does not serve the model");
    expect(seen.map((s) => s.outcome)).toEqual(["model_unavailable"]);
  });

  test("sends the reasoning fields it is given; an answer cut off by max_tokens before any content is cut short, not an error", async () => {
    const reasoning = createGroqCompleter({
      apiKey: "gsk_fake_completer",
      baseUrl: llm.baseUrl,
      model: "openai/gpt-oss-20b",
      timeoutMs: 2_000,
      maxRetries: 0,
      reasoning: { reasoning_effort: "low", include_reasoning: false },
    });
    llm.respondWith(() => ({ content: "An answer.", reasoningTokens: 500 }));
    const completion = await reasoning.complete({
      messages: [{ role: "user", content: "hello" }],
      maxTokens: 100,
      retryBudget: createRetryBudget(5_000),
    });
    expect(llm.calls[0]!.reasoning).toEqual({ effort: "low", include: false, format: undefined });
    expect(completion).toMatchObject({ text: "", cutShort: true, reasoningTokens: 100, outputTokens: 100 });
  });
});
