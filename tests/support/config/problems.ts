/** @module The problems `loadConfig` reports for an environment, for the configuration tests. */
import { ConfigError, loadConfig } from "../../../src/app/config/config.ts";

/** @returns every problem `loadConfig` reports for `env`; none when it loads */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
