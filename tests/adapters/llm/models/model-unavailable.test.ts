/** @module Tests of the message for a model the endpoint does not serve. */
import { describe, expect, test } from "bun:test";
import { modelUnavailable, unavailableModelAdvice } from "../../../../src/adapters/llm/models/model-unavailable.ts";

describe("a model the endpoint does not serve", () => {
  test("a retired model: the model, when it was retired, the setting and the replacement", () => {
    const error = modelUnavailable("llama-3.1-8b-instant");
    expect(error.code).toBe("upstream_error");
    expect(error.message).toBe(
      'The language model endpoint does not serve the model "llama-3.1-8b-instant" (the provider retired it on ' +
        "2026-08-16); set GROQ_MODEL (or LLM_MODEL) to a model it serves, such as openai/gpt-oss-20b",
    );
  });

  test("an unknown model: the model and the setting, no replacement guessed", () => {
    expect(unavailableModelAdvice("my/typo-model")).toBe(
      'the language model endpoint does not serve the model "my/typo-model"; set GROQ_MODEL (or LLM_MODEL) to a ' +
        "model it serves",
    );
  });
});
