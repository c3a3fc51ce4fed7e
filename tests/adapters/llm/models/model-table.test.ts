/** @module Tests of the model table: today's default, the figures and their date, retirements, reasoning families. */
import { describe, expect, test } from "bun:test";
import {
  DEFAULT_MODEL,
  KNOWN_MODELS,
  modelFacts,
  reasoningOf,
  RETIRED_MODELS,
} from "../../../../src/adapters/llm/models/model-table.ts";

describe("the model table", () => {
  test("the default model is one Groq's free plan serves today (gpt-oss-20b or newer), with its figures and their date", () => {
    expect(DEFAULT_MODEL).toBe("openai/gpt-oss-20b");
    const facts = modelFacts(DEFAULT_MODEL)!;
    expect(facts.freePlan).toEqual({
      tokensPerMinute: 8_000,
      requestsPerMinute: 30,
      tokensPerDay: 200_000,
      requestsPerDay: 1_000,
    });
    expect(facts.contextTokens).toBe(131_072);
    expect(facts.readOn).toContain("2026-10-01");
    expect(RETIRED_MODELS[DEFAULT_MODEL]).toBeUndefined();
  });

  test("no model of the table is a retired one, and the preview is marked as such", () => {
    for (const id of Object.keys(KNOWN_MODELS)) expect(RETIRED_MODELS[id]).toBeUndefined();
    expect(modelFacts("qwen/qwen3.8-27b")?.preview).toBe(true);
    expect(modelFacts("qwen/qwen3.8-27b")?.freePlan).toBeUndefined();
  });

  test("every retired model names a replacement the table knows", () => {
    expect(Object.keys(RETIRED_MODELS)).toContain("llama-3.1-8b-instant");
    for (const retired of Object.values(RETIRED_MODELS)) expect(modelFacts(retired.replacement)).toBeDefined();
  });

  test("an unknown model gets no figures; its family still says how it reasons", () => {
    expect(modelFacts("some/new-model")).toBeUndefined();
    expect(reasoningOf("some/new-model")).toBeUndefined();
    expect(reasoningOf("gpt-oss:20b")?.appears).toBe("field");
    expect(reasoningOf("qwen3:8b")?.appears).toBe("think-tags");
    expect(reasoningOf("openai/gpt-oss-120b")?.effortFor.low).toBe("low");
    expect(reasoningOf("qwen/qwen3.8-27b")?.effortFor).toEqual({ low: "none", medium: "default", high: "default" });
  });
});
