/** @module Tests of `readTestSettings()`: the provider's minute tests shorten, read apart from the configuration. */
import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../../src/app/config/config.ts";
import { readTestSettings } from "../../../src/app/config/test-settings.ts";
import { variablesRead } from "../../support/config/variables.ts";

describe("readTestSettings()", () => {
  test("reads the provider's minute the tests shorten, and leaves it unset in production", () => {
    expect(readTestSettings({ TEST_LLM_BUDGET_WINDOW_MS: "3000" })).toEqual({ llmBudgetWindowMs: 3_000 });
    expect(readTestSettings({}).llmBudgetWindowMs).toBeUndefined();
  });

  test("refuses a value out of range, naming the setting", () => {
    const error = (() => {
      try {
        return readTestSettings({ TEST_LLM_BUDGET_WINDOW_MS: "50" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'TEST_LLM_BUDGET_WINDOW_MS must be a whole number from 100 to 3600000: current value is "50"',
    ]);
  });

  test("is not configuration: loadConfig() reads no test setting", () => {
    expect(variablesRead().filter((name) => name.startsWith("TEST_") || name.includes("BUDGET_WINDOW"))).toEqual([
      "STT_BUDGET_WINDOW_MS",
    ]);
  });
});
