/** @module Tests of the LLM endpoint's settings: LLM_* names, their GROQ_* synonyms, the figures planned on. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import { configProblems } from "../../support/config/problems.ts";

describe("the LLM endpoint's settings", () => {
  test("by default: Groq's API, gpt-oss-20b, low effort, its free plan by the minute and by the day", () => {
    const config = loadConfig({ GROQ_API_KEY: "gsk_x" });
    expect(config.llmApi).toEqual({
      apiKey: "gsk_x",
      baseUrl: "https://api.groq.com/openai/v1",
      model: "openai/gpt-oss-20b",
      models: ["openai/gpt-oss-20b"],
      dialect: "groq",
      reasoningEffort: "low",
    });
    expect(config.llm).toMatchObject({
      tokensPerMinute: 8_000,
      requestsPerMinute: 30,
      tokensPerDay: 200_000,
      requestsPerDay: 1_000,
      contextTokens: 131_072,
      privateUnpaced: false,
    });
  });

  test("LLM_* names, written as OpenAI-compatible clients take them; GROQ_BASE_URL keeps groq-sdk's meaning", () => {
    const local = loadConfig({
      LLM_BASE_URL: "http://localhost:11434/v1",
      LLM_API_KEY: "ollama",
      LLM_MODEL: "gpt-oss:20b",
    });
    expect(local.llmApi).toMatchObject({
      baseUrl: "http://localhost:11434/v1",
      model: "gpt-oss:20b",
      dialect: "openai",
    });
    expect(loadConfig({ GROQ_BASE_URL: "http://127.0.0.1:4000" }).llmApi.baseUrl).toBe(
      "http://127.0.0.1:4000/openai/v1",
    );
    expect(loadConfig({ GROQ_BASE_URL: "https://api.groq.com/openai/v1/" }).llmApi.baseUrl).toBe(
      "https://api.groq.com/openai/v1",
    );
  });

  test("a GROQ_* name and its LLM_* synonym set to different values stop start-up; the key is never echoed", () => {
    expect(configProblems({ LLM_MODEL: "a", GROQ_MODEL: "b" })).toEqual([
      'LLM_MODEL and GROQ_MODEL name the same setting but differ: "a" and "b"; set only LLM_MODEL',
    ]);
    const keys = configProblems({ LLM_API_KEY: "sk-one-secret", GROQ_API_KEY: "gsk-two-secret" });
    expect(keys).toEqual(["LLM_API_KEY and GROQ_API_KEY name the same setting but differ; set only LLM_API_KEY"]);
    expect(configProblems({ LLM_BASE_URL: "https://api.groq.com/openai/v1", GROQ_BASE_URL: "https://api.groq.com" }))
      .toEqual(
        [],
      );
  });

  test("a private endpoint that states no limits starts unpaced; the operator's figure still rules", () => {
    const local = loadConfig({ LLM_BASE_URL: "http://127.0.0.1:8000/v1", LLM_MODEL: "m" });
    expect(local.llm.privateUnpaced).toBe(true);
    expect(local.llm.tokensPerMinute).toBeGreaterThan(1e9);
    expect(local.llm.contextTokens).toBeUndefined();
    const stated = loadConfig({
      LLM_BASE_URL: "http://127.0.0.1:8000/v1",
      LLM_MODEL: "m",
      LLM_TOKENS_PER_MINUTE: "5000",
    });
    expect([stated.llm.privateUnpaced, stated.llm.tokensPerMinute]).toEqual([false, 5_000]);
  });

  test("a model the table does not know gets no figures of its own: provisional minute figures, no day, no context", () => {
    const config = loadConfig({ GROQ_MODEL: "some/new-model" });
    expect(config.llm).toMatchObject({ tokensPerMinute: 8_000, requestsPerMinute: 30, contextTokens: undefined });
    expect(config.llm.tokensPerDay).toBeUndefined();
  });

  test("a paid plan's minute figures set by the operator: the free plan's day is not assumed", () => {
    const config = loadConfig({ LLM_TOKENS_PER_MINUTE: "250000" });
    expect([config.llm.tokensPerDay, config.llm.requestsPerDay]).toEqual([undefined, undefined]);
  });
});
