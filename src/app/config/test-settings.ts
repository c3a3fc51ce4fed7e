/** @module Settings only the test suite and the benches set: not configuration, so docs/configuration.md omits them. */
import { ConfigError } from "./config.ts";
import { EnvReader } from "./readers.ts";

/** The provider's minute, which the LLM budget counts its per-minute limits in. */
export const MINUTE_MS = 60_000;

/** What tests change in how the service keeps time; each unset in production. */
export interface TestSettings {
  /**
   * The length of the provider's minute in the LLM budget (`TEST_LLM_BUDGET_WINDOW_MS`), so a suite spends a minute's
   * limits in seconds rather than waiting out real minutes; a real minute unset.
   */
  llmBudgetWindowMs?: number;
}

/**
 * Reads the settings the tests and benches give a service they start as a process. `loadConfig` does not read them:
 * they are not configuration, and an operator never sets them.
 *
 * @param env the process environment
 * @returns the settings; none set in production
 * @throws {ConfigError} naming a setting with a bad value
 */
export function readTestSettings(env: Record<string, string | undefined>): TestSettings {
  const read = new EnvReader(env);
  const llmBudgetWindowMs = read.optionalInt("TEST_LLM_BUDGET_WINDOW_MS", { min: 100, max: 3_600_000 });
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return { llmBudgetWindowMs };
}
