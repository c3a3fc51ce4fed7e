/** @module Tests of budget-key.ts: a budget named by endpoint, model and a digest of the key, never the key. */
import { describe, expect, test } from "bun:test";
import { budgetKey } from "../../../../src/adapters/llm/budget/budget-key.ts";
import { sha256Hex } from "../../../../src/adapters/keys/key-digest.ts";

const groq = {
  endpoint: "https://api.groq.com/openai/v1",
  model: "llama-3.1-8b-instant",
  apiKey: "gsk_organisation_a_secret",
};

describe("budgetKey()", () => {
  test("names the endpoint, the model and a digest of the key, never the key itself", () => {
    const key = budgetKey(groq, sha256Hex);
    expect(key).toStartWith("api.groq.com/openai/v1|llama-3.1-8b-instant|key-");
    expect(key).not.toContain("gsk_organisation_a_secret");
    expect(key).not.toContain("secret");
  });

  test("differs for another organisation's key, another endpoint or another model", () => {
    const key = budgetKey(groq, sha256Hex);
    expect(budgetKey({ ...groq, apiKey: "gsk_organisation_b_secret" }, sha256Hex)).not.toBe(key);
    expect(budgetKey({ ...groq, endpoint: "http://127.0.0.1:8080/v1" }, sha256Hex)).not.toBe(key);
    expect(budgetKey({ ...groq, model: "llama-3.3-70b-versatile" }, sha256Hex)).not.toBe(key);
    expect(budgetKey({ ...groq }, sha256Hex)).toBe(key);
  });

  test("drops credentials written in the endpoint's URL", () => {
    const key = budgetKey({ ...groq, endpoint: "https://user:hunter2@gateway.example/v1/" }, sha256Hex);
    expect(key).toStartWith("gateway.example/v1|");
    expect(key).not.toContain("hunter2");
  });
});
