/** @module Tests of the chain of models' settings: LLM_MODELS, and a second endpoint's LLM_FALLBACK_*. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import { configProblems } from "../../support/config/problems.ts";

const KEY = { LLM_API_KEY: "gsk_x" };

describe("the chain of models' settings", () => {
  test("one model by default: the chain is LLM_MODEL alone, on the primary's figures", () => {
    const config = loadConfig({ ...KEY, LLM_MODEL: "openai/gpt-oss-120b" });
    expect(config.llmChain.map((link) => [link.model, link.endpoint, link.setting])).toEqual([
      ["openai/gpt-oss-120b", "primary", "GROQ_MODEL (or LLM_MODEL)"],
    ]);
    expect(config.llmChain[0]!.figures).toMatchObject({ tokensPerMinute: 8_000, tokensPerDay: 200_000 });
  });

  test("LLM_MODELS or LLM_FALLBACK_MODELS set to commas alone is refused, not read as unset", () => {
    expect(configProblems({ ...KEY, LLM_MODELS: " , ," })).toEqual([
      "LLM_MODELS names no model: list model ids separated by commas, or leave it unset",
    ]);
    const fallback = { LLM_FALLBACK_BASE_URL: "http://127.0.0.1:8000/v1", LLM_FALLBACK_API_KEY: "local" };
    expect(configProblems({ ...KEY, ...fallback, LLM_FALLBACK_MODELS: "," })).toContain(
      "LLM_FALLBACK_MODELS names no model: list model ids separated by commas, or leave it unset",
    );
  });

  test("LLM_MODELS: each model in order, each its own free plan on Groq's API, the first the primary", () => {
    const config = loadConfig({ ...KEY, LLM_MODELS: "openai/gpt-oss-20b, qwen/qwen3.8-27b ,openai/gpt-oss-120b" });
    expect(config.llmApi.model).toBe("openai/gpt-oss-20b");
    expect(config.llmChain.map((link) => link.model)).toEqual([
      "openai/gpt-oss-20b",
      "qwen/qwen3.8-27b",
      "openai/gpt-oss-120b",
    ]);
    expect(config.llmChain[2]!.figures).toMatchObject({ tokensPerMinute: 8_000, tokensPerDay: 200_000 });
    // Qwen's limits are not published: provisional figures until Groq's headers state them, no day assumed.
    expect(config.llmChain[1]!.figures).toMatchObject({ tokensPerMinute: 8_000, tokensPerDay: undefined });
    expect(config.llmChain.every((link) => link.setting === "LLM_MODELS")).toBe(true);
  });

  test("the operator's figures apply to every model of the first endpoint, not to the fallback's", () => {
    const config = loadConfig({
      ...KEY,
      LLM_MODELS: "openai/gpt-oss-20b,openai/gpt-oss-120b",
      LLM_TOKENS_PER_MINUTE: "250000",
      LLM_CONTEXT_TOKENS: "65536",
      LLM_FALLBACK_BASE_URL: "http://127.0.0.1:8000/v1",
      LLM_FALLBACK_API_KEY: "local",
      LLM_FALLBACK_MODELS: "meta-llama/Llama-3.1-8B-Instruct",
    });
    expect(config.llmChain.map((link) => [link.figures.tokensPerMinute, link.figures.contextTokens])).toEqual([
      [250_000, 65_536],
      [250_000, 65_536],
      [expect.any(Number), undefined],
    ]);
    const local = config.llmChain[2]!;
    expect(local).toMatchObject({ endpoint: "fallback", baseUrl: "http://127.0.0.1:8000/v1", apiKey: "local" });
    expect(local.figures.privateUnpaced).toBe(true);
    expect(local.dialect).toBe("openai");
  });

  test("wrong settings are problems: LLM_MODEL not the first, a model twice, a fallback half set, its key never shown", () => {
    expect(configProblems({ ...KEY, LLM_MODEL: "a", LLM_MODELS: "b,a" })).toEqual([
      'LLM_MODELS starts with "b" but LLM_MODEL (or GROQ_MODEL) is "a"; set only LLM_MODELS, its first model the primary',
    ]);
    expect(configProblems({ ...KEY, LLM_MODELS: "a,b,a" })).toEqual([
      'LLM_MODELS names "a" twice: list each model once, in the order to try them',
    ]);
    const half = configProblems({ ...KEY, LLM_FALLBACK_API_KEY: "sk-or-secret", LLM_FALLBACK_MODELS: "x/y" });
    expect(half).toHaveLength(1);
    expect(half[0]).toContain("go together");
    expect(half.join("\n")).not.toContain("sk-or-secret");
    expect(configProblems({
      LLM_FALLBACK_BASE_URL: "https://openrouter.ai/api/v1",
      LLM_FALLBACK_API_KEY: "k",
      LLM_FALLBACK_MODELS: "x/y",
    })).toEqual(["LLM_FALLBACK_* name a second endpoint for the first one's models: set LLM_API_KEY too"]);
  });
});
