/** @module The environment variables `loadConfig()` reads, for the tests that keep the docs equal to them. */
import { loadConfig } from "../../../src/app/config/config.ts";

/** @returns every name `loadConfig()` asks the environment for, with the listeners on so their own settings are read */
export function variablesRead(): string[] {
  const asked = new Set<string>();
  const set: Record<string, string> = { ADMIN_PORT: "9001", MCP_PORT: "9002", STT: "groq", LLM_API_KEY: "k" };
  const env = new Proxy(set, {
    get(target, name) {
      if (typeof name === "string") asked.add(name);
      return target[name as string];
    },
  });
  loadConfig(env);
  return [...asked].sort();
}
